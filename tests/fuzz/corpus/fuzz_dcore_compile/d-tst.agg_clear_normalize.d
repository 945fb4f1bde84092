/*
 * ASSERTION: clear() zeroes values and keeps keys; normalize() divides the
 * printed values; denormalize() undoes it.
 * SECTION: Aggregations/Normalizing Aggregations
 */
#pragma D option quiet

BEGIN
{
	@s["a"] = sum(1000);
	@s["b"] = sum(500);
	normalize(@s, 100);
	printa(@s);
	denormalize(@s);
	printa(@s);
	clear(@s);
	printa(@s);
	@s["b"] = sum(7);
	exit(0);
}
