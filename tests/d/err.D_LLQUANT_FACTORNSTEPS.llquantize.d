/*
 * ASSERTION: steps per magnitude below the factor
 * SECTION: Aggregations/llquantize
 */

BEGIN
{
	@a = llquantize(1, 10, 0, 2, 5);
	exit(0);
}
