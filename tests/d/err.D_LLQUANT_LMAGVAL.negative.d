/*
 * ASSERTION: the low magnitude is an unsigned 16-bit quantity
 * SECTION: Aggregations/llquantize
 */
BEGIN
{
	@a = llquantize(3, 10, -1, 2, 10);
}
