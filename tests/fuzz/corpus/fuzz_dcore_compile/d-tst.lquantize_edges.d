/*
 * ASSERTION: lquantize() counts values below the lower bound in "< lower"
 * and values at or above the upper bound in ">= upper"; the bounds
 * themselves fall in the first and last linear buckets.
 * SECTION: Aggregations/lquantize
 */
#pragma D option quiet

BEGIN
{
	@a = lquantize(-100, -10, 10, 5);
	@a = lquantize(-10, -10, 10, 5);
	@a = lquantize(9, -10, 10, 5);
	@a = lquantize(10, -10, 10, 5);
	@a = lquantize(10, -10, 10, 5);
	@b = lquantize(5, 0, 100, 10);
	@c = lquantize(1000, 0, 100, 10);
	@d = lquantize(42, 0, 100);
	exit(0);
}
