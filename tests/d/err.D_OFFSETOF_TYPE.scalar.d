/*
 * ASSERTION: offsetof requires a struct or union
 * SECTION: Errors
 */
BEGIN
{
	x = offsetof(int, a);
}
