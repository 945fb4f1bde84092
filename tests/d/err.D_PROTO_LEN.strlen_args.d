/*
 * ASSERTION: subroutines check their argument count
 * SECTION: Errors
 */
BEGIN
{
	x = strlen("a", "b");
}
