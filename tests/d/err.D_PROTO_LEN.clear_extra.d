/*
 * ASSERTION: clear() takes one argument: too many is D_PROTO_LEN, as for
 * every function in the Linux DTrace
 * SECTION: Aggregations/Clearing Aggregations
 */
BEGIN
{
	@a = count();
	clear(@a, 1);
}
