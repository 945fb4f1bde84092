/*
 * ASSERTION: an aggregation keeps its function
 * SECTION: Errors
 */
BEGIN
{
	@a = count();
	@a = sum(1);
}
