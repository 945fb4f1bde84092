/*
 * ASSERTION: positional conversions are not supported
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%1$d\n", 1);
	exit(0);
}
