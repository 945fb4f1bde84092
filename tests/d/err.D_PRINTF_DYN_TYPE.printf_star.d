/*
 * ASSERTION: a '*' width must be an integer
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%*d\n", "x", 1);
	exit(0);
}
