/*
 * ASSERTION: a conversion without a value argument
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%d %d\n", 1);
	exit(0);
}
