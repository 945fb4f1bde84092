/*
 * ASSERTION: a variable keeps the type of its first assignment
 * SECTION: Errors
 */
BEGIN
{
	x = 1;
	x = "str";
}
