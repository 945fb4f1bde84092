/*
 * ASSERTION: built-in variables are read-only
 * SECTION: Errors
 */
BEGIN
{
	pid = 1;
}
