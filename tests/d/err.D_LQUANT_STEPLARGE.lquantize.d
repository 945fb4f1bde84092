/*
 * ASSERTION: a step larger than the range
 * SECTION: Aggregations/lquantize
 */

BEGIN
{
	@a = lquantize(1, 0, 10, 20);
	exit(0);
}
