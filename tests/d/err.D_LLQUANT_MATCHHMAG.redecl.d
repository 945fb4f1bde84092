/*
 * ASSERTION: a second llquantize() of one aggregation repeats the first
 * one's high magnitude
 * SECTION: Aggregations/llquantize
 */
BEGIN
{
	@a = llquantize(3, 10, 0, 2, 10);
	@a = llquantize(4, 10, 0, 3, 10);
}
