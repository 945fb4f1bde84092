/*
 * ASSERTION: printa()'s first argument is a format or an aggregation
 * SECTION: Output Formatting/printa
 */
BEGIN
{
	printa(42);
}
