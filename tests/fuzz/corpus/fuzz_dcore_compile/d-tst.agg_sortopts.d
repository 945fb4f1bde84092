/*
 * ASSERTION: aggsortrev reverses the order; aggsortkey with aggsortkeypos
 * sorts by the named key.
 * SECTION: Aggregations/Sorting
 */
#pragma D option quiet

BEGIN
{
	@[1, "c"] = sum(5);
	@[2, "a"] = sum(9);
	@[3, "b"] = sum(1);
	setopt("aggsortrev");
	printa(@);
	setopt("aggsortrev", "0");
	setopt("aggsortkey");
	setopt("aggsortkeypos", "1");
	printa(@);
	exit(0);
}
