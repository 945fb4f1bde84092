/*
 * ASSERTION: printa() of several aggregations needs keys of the same types
 * SECTION: Output Formatting/printa
 */
BEGIN
{
	@hits[1, "a"] = count();
	@bytes["a", 1] = sum(10);
	printa(@hits, @bytes);
}
