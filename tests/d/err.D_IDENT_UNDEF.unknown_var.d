/*
 * ASSERTION: reading a variable never assigned is an error
 * SECTION: Errors
 */
BEGIN
{
	trace(nosuchvar);
}
