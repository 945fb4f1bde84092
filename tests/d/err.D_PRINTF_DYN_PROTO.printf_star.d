/*
 * ASSERTION: a '*' width needs an argument
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%*d\n");
	exit(0);
}
