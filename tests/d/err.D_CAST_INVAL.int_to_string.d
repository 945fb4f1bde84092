/*
 * ASSERTION: integers cannot be cast to string
 * SECTION: Errors
 */
BEGIN
{
	x = (string)1;
}
