/*
 * ASSERTION: the high magnitude must exceed the low
 * SECTION: Aggregations/llquantize
 */

BEGIN
{
	@a = llquantize(1, 10, 3, 2, 10);
	exit(0);
}
