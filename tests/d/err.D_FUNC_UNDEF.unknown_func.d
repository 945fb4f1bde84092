/*
 * ASSERTION: calling an unknown function
 * SECTION: Errors
 */
BEGIN
{
	nosuchfunc(1);
}
