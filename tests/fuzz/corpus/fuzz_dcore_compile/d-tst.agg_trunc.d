/*
 * ASSERTION: trunc(@, n) keeps the n largest values, trunc(@, -n) the n
 * smallest, trunc(@) removes every entry.
 * SECTION: Aggregations/Truncating aggregations
 */
#pragma D option quiet

BEGIN
{
	@a[1] = sum(10); @a[2] = sum(20); @a[3] = sum(30); @a[4] = sum(40);
	@b[1] = sum(10); @b[2] = sum(20); @b[3] = sum(30); @b[4] = sum(40);
	@c[1] = sum(10); @c[2] = sum(20);
	trunc(@a, 2);
	trunc(@b, -1);
	trunc(@c);
	printa(@a);
	printa(@b);
	printa(@c);
	exit(0);
}
