/*
 * ASSERTION: printa() with a format prints one line per entry with the
 * keys and %@ values converted like printf; no leading blank line.
 * SECTION: Output Formatting/printa
 */
#pragma D option quiet

BEGIN
{
	@c["open", 3] = count();
	@c["read", 10] = count();
	@c["read", 10] = count();
	@s["k"] = sum(255);
	printa("%-8s|%4d|%@5u|\n", @c);
	printa("%s %@x %@X %@o %@08d\n", @s);
	printa("[%@d]\n", @s);
	exit(0);
}
