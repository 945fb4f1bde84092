/*
 * ASSERTION: BEGIN has no args[]
 * SECTION: Errors
 */
BEGIN
{
	x = args[0];
}
