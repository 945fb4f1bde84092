/*
 * ASSERTION: an aggregation is not a value an operator can use
 * SECTION: Aggregations
 */
BEGIN
{
	@calls = count();
	x = @calls * 2;
}
