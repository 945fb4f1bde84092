/*
 * ASSERTION: comparisons yield 0 or 1; && and || short-circuit; ^^ is logical xor.
 * SECTION: Types, Operators, and Expressions/Relational and Logical Operators
 */
#pragma D option quiet

BEGIN
{
	x = 0;
	printf("%d %d %d %d %d %d\n", 1 < 2, 2 < 1, 2 <= 2, 3 >= 4, 5 == 5, 5 != 5);
	printf("%d %d %d %d\n", 1 && 0, 1 || 0, 1 ^^ 1, 0 ^^ 1);
	y = (0 && (x = 1)) || (1 || (x = 2));
	printf("%d %d\n", x, y);
	printf("%d %d\n", !0, !42);
	printf("%d %d\n", 1 ? 10 : 20, 0 ? 10 : 20);
	exit(0);
}
