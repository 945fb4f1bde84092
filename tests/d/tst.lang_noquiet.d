/*
 * ASSERTION: without -q each recording clause prints the probe line; clauses that only assign print nothing.
 * SECTION: Output Formatting/default output
 */
BEGIN
{
	x = 1;
}

BEGIN
{
	printf("x=%d", x);
}

BEGIN
{
	exit(0);
}
