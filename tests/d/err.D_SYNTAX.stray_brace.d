/*
 * ASSERTION: a stray } is a syntax error
 * SECTION: Errors
 */
BEGIN
{
	x = 1;
}
}
