/*
 * ASSERTION: %@ is for printa() only
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%@d\n", 1);
	exit(0);
}
