/*
 * ASSERTION: %@s does not fit an aggregation value
 * SECTION: Output Formatting/printa
 */

BEGIN
{
	@a[1] = count(); printa("%d %@s\n", @a);
	exit(0);
}
