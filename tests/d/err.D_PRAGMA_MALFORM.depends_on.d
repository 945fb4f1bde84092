/*
 * ASSERTION: #pragma D depends_on needs a class and a name.
 * SECTION: Stability/depends_on
 */
#pragma D depends_on provider

BEGIN
{
	exit(0);
}
