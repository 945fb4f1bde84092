/*
 * ASSERTION: a second lquantize() of one aggregation repeats the first
 * one's step
 * SECTION: Aggregations/lquantize
 */
BEGIN
{
	@a = lquantize(3, 0, 100, 10);
	@a = lquantize(4, 0, 100, 5);
}
