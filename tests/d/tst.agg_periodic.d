/*
 * ASSERTION: the periodic pattern printa() then trunc() starts each
 * interval empty; printa() then clear() keeps the keys with zero values.
 * SECTION: Aggregations/Truncating aggregations
 */
#pragma D option quiet

BEGIN
{
	n = 0;
}

tick-1ms
{
	n++;
	@t["ticks"] = count();
	@c["ticks"] = count();
	@c[n % 2 ? "odd" : "even"] = count();
}

tick-1ms
/n % 3 == 0/
{
	printf("-- %d\n", n);
	printa(@t);
	trunc(@t);
	printa("%s %@d\n", @c);
	clear(@c);
}

tick-1ms
/n == 6/
{
	exit(0);
}
