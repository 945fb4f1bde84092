/*
 * ASSERTION: xlate requires a translator for the types
 * SECTION: Errors
 */
struct out { int a; };

BEGIN
{
	x = xlate <struct out *> (1)->a;
}
