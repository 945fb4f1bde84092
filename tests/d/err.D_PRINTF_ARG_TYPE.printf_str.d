/*
 * ASSERTION: a string argument does not match %d
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%d\n", "str");
	exit(0);
}
