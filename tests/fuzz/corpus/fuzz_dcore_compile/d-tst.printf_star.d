/*
 * ASSERTION: '*' takes the width or precision from an argument; a
 * negative width left-justifies.
 * SECTION: Output Formatting/printf
 */
#pragma D option quiet

BEGIN
{
	w = 6;
	printf("[%*d]\n", w, 42);
	printf("[%*d]\n", -w, 42);
	printf("[%.*s]\n", 3, "abcdef");
	printf("[%*.*s]\n", 8, 2, "abcdef");
	printf("[%?d]\n", 1);
	exit(0);
}
