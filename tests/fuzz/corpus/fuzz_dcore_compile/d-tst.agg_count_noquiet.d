/*
 * ASSERTION: without -q, the BEGIN firing prints its CPU/ID/FUNCTION:NAME
 * line and the aggregations follow the exit newline.
 * SECTION: Aggregations/count, Output Formatting/trace
 */
BEGIN
{
	@["a"] = count();
	@["b"] = count();
	@["b"] = count();
	exit(0);
}
