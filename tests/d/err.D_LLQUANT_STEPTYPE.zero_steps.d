/*
 * ASSERTION: the steps per magnitude must be a positive constant
 * SECTION: Aggregations/llquantize
 */
BEGIN
{
	@a = llquantize(3, 10, 0, 2, 0);
}
