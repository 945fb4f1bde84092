/*
 * ASSERTION: printf flags # 0 - + space, widths and precisions behave as
 * in C.
 * SECTION: Output Formatting/printf
 */
#pragma D option quiet

BEGIN
{
	printf("[%#8x]\n", 0x123);
	printf("[%08x]\n", 0x123);
	printf("[%-8x]\n", 0x123);
	printf("[%+8d]\n", 123);
	printf("[% 8d]\n", 123);
	printf("[%-+8d]\n", -123);
	printf("[%#o]\n", 8);
	printf("[%.5d]\n", 42);
	printf("[%8.3d]\n", 7);
	printf("[%-08d]\n", 5);
	exit(0);
}
