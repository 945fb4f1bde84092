/*
 * ASSERTION: operators and expressions: chained and compound assignment on
 *   globals, associative arrays and thread-locals, nested ?: with strings,
 *   precedence, comparison chains, the comma operator, mixed signedness.
 * SECTION: Types, Operators and Expressions; Variables
 */
#pragma D option quiet
BEGIN
{
	x = y = 3;
	a[1]++; a[1] += 5;
	self->b[1, 2] += 2; self->b[1, 2] *= 10;
	printf("%d %d %d %d\n", x, y, a[1], self->b[1, 2]);
	z = 2;
	printf("%s %s %s\n", z > 1 ? "a" : z > 0 ? "b" : "c", z > 2 ? "a" : z > 0 ? "b" : "c", z < 0 ? "a" : "c");
	printf("%d %d\n", -(unsigned)1 > 0, - -5);
	printf("%d %d %d\n", 7 & 3 | 8, 1 + 2 * 3 - 4 / 2, (1 + 2) * 3);
	printf("%d %d %d\n", 10 >> 1 << 2, 1 < 2 == 1, 3 > 2 > 1);
	printf("%d %d\n", 1 && 0 || 1, !1 || !0 && 0);
	printf("%d\n", ~5 & 0xff);
	u = 5u; v = -3;
	printf("%d %d\n", v < u, (v < 0) && (u > 0));
	w = (unsigned long)10 / 3; q = -10 / 3; r = -10 % 3;
	printf("%d %d %d\n", w, q, r);
	n = 0;
	n++; ++n; n += 5; n -= 1; n *= 3; n /= 2; n %= 5; n <<= 3; n >>= 1; n |= 1; n &= 7; n ^= 2;
	m = n++ + ++n;
	printf("%d %d %d\n", n, m, (1, 2));
	exit(0);
}
