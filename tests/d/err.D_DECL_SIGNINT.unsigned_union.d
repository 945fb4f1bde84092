/*
 * ASSERTION: signed and unsigned qualify integers only, not a union.
 * SECTION: Errors
 */
unsigned union u { int a; long b; };

BEGIN
{
	exit(0);
}
