/*
 * ASSERTION: more than 65535 levels
 * SECTION: Aggregations/lquantize
 */

BEGIN
{
	@a = lquantize(1, 0, 100000, 1);
	exit(0);
}
