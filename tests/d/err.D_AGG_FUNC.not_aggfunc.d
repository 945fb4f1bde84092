/*
 * ASSERTION: aggregations are assigned aggregating functions only
 * SECTION: Errors
 */
BEGIN
{
	@a = 1;
}
