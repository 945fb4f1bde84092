/*
 * ASSERTION: printf("%d") of an aggregation does not match the conversion
 * SECTION: Output Formatting/printf
 */
BEGIN
{
	@calls = count();
	printf("%d\n", @calls);
}
