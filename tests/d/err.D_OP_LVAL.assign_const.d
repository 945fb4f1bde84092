/*
 * ASSERTION: only lvalues can be assigned
 * SECTION: Errors
 */
BEGIN
{
	1 = 2;
}
