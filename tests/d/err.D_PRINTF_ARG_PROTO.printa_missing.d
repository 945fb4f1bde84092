/*
 * ASSERTION: printa() conversions beyond the keys
 * SECTION: Output Formatting/printa
 */

BEGIN
{
	@a = count(); printa("%s %@d\n", @a);
	exit(0);
}
