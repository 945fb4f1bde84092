/*
 * ASSERTION: the factor must be at least 2
 * SECTION: Aggregations/llquantize
 */

BEGIN
{
	@a = llquantize(1, 1, 0, 2, 10);
	exit(0);
}
