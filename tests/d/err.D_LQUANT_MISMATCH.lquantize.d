/*
 * ASSERTION: the lower bound must be below the upper bound
 * SECTION: Aggregations/lquantize
 */

BEGIN
{
	@a = lquantize(1, 10, 0, 1);
	exit(0);
}
