/*
 * ASSERTION: fewer steps per magnitude than the factor (the Linux DTrace
 * allows it when the steps divide the factor) is not supported here
 * SECTION: Aggregations/llquantize
 */

BEGIN
{
	@a = llquantize(1, 10, 0, 2, 5);
	exit(0);
}
