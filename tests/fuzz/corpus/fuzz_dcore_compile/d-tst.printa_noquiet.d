/*
 * ASSERTION: without -q, printa() output follows the firing's
 * CPU/ID/FUNCTION:NAME prefix and the firing ends with a newline; END is
 * probe 2.
 * SECTION: Output Formatting/printa
 */
BEGIN
{
	@[1] = count();
	printa(@);
	printf("x");
}

BEGIN
{
	exit(0);
}

END
{
	printa("%d %@d\n", @);
}
