/*
 * ASSERTION: more arguments than conversions
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%d\n", 1, 2);
	exit(0);
}
