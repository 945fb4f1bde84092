/*
 * ASSERTION: a string literal may not contain a newline
 * SECTION: Errors
 */
BEGIN
{
	x = "abc
def";
}
