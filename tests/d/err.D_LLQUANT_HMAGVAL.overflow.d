/*
 * ASSERTION: factor^(high+1) must fit 64 bits
 * SECTION: Aggregations/llquantize
 */

BEGIN
{
	@a = llquantize(1, 10, 0, 30, 10);
	exit(0);
}
