/*
 * ASSERTION: the factor must divide the steps
 * SECTION: Aggregations/llquantize
 */

BEGIN
{
	@a = llquantize(1, 10, 0, 2, 15);
	exit(0);
}
