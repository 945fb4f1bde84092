/*
 * ASSERTION: + requires arithmetic operands
 * SECTION: Errors
 */
BEGIN
{
	x = "a" + 1;
}
