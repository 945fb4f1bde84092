/*
 * ASSERTION: #pragma D depends_on provider fails when no such provider exists.
 * SECTION: Stability/depends_on
 */
#pragma D depends_on provider nosuchprovider

BEGIN
{
	exit(0);
}
