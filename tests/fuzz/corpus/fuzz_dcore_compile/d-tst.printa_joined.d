/*
 * ASSERTION: printa() of several aggregations keyed alike prints one row
 * per key with a column per aggregation (zero where a key is missing),
 * sorted by the first aggregation, or by the one aggsortpos names.
 * SECTION: Output Formatting/printa
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["x"] = count();
	@a["y"] = count();
	@b["x"] = sum(100);
	@b["z"] = sum(5);
	printa(@a, @b);
	printa("%s: a=%@d b=%@d\n", @a, @b);
	setopt("aggsortpos", "1");
	printa("%s: a=%@d b=%@d\n", @a, @b);
	exit(0);
}
