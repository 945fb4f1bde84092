/*
 * ASSERTION: % requires integral operands
 * SECTION: Errors
 */
BEGIN
{
	x = "a" % 2;
}
