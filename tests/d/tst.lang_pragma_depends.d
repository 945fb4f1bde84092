/*
 * ASSERTION: #pragma D depends_on is met by providers that exist; module and
 *   library dependencies are accepted.
 * SECTION: Stability/depends_on
 */
#pragma D depends_on provider dtrace
#pragma D depends_on provider profile
#pragma D depends_on module unix
#pragma D option quiet

BEGIN
{
	printf("ok\n");
	exit(0);
}
