/*
 * ASSERTION: an undefined conversion is a syntax error
 * SECTION: Output Formatting/printf
 */

BEGIN
{
	printf("%z\n", 1);
	exit(0);
}
