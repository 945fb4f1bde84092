/*
 * ASSERTION: subroutines check their argument types
 * SECTION: Errors
 */
BEGIN
{
	x = strlen(1);
}
