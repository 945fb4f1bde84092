/*
 * ASSERTION: integer arithmetic is C's: precedence, truncating division, remainder sign, shifts.
 * SECTION: Types, Operators, and Expressions/Arithmetic Operators
 */
#pragma D option quiet

BEGIN
{
	a = 7;
	b = -7;
	printf("%d %d %d %d\n", a / 2, b / 2, a % 3, b % 3);
	printf("%d %d %d\n", 1 + 2 * 3, (1 + 2) * 3, 20 - 5 - 3);
	printf("%d %d %d\n", 1 << 10, -16 >> 2, 0xf0 >> 4);
	printf("%d %d %d %d\n", 6 & 3, 6 | 3, 6 ^ 3, ~0);
	printf("%d %d\n", (long)100000 * 100000, 9223372036854775807 + 0);
	exit(0);
}
