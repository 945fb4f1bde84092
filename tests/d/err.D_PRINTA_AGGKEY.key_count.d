/*
 * ASSERTION: printa() of several aggregations needs as many keys in each
 * SECTION: Output Formatting/printa
 */
BEGIN
{
	@hits["a", 1] = count();
	@bytes["a"] = sum(10);
	printa(@hits, @bytes);
}
