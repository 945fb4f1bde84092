/*
 * ASSERTION: sizeof (void) is invalid
 * SECTION: Errors
 */
BEGIN
{
	x = sizeof (void);
}
