/*
 * ASSERTION: an undefined macro argument is an error
 * SECTION: Errors
 */
BEGIN
{
	x = $9;
}
