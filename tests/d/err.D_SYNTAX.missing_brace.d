/*
 * ASSERTION: a clause body must be closed
 * SECTION: Errors
 */
BEGIN
{
	x = 1;
