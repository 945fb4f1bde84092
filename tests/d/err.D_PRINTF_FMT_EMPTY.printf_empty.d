/*
 * ASSERTION: an empty format
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("");
	exit(0);
}
