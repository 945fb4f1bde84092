/*
 * ASSERTION: printf checks conversions against arguments
 * SECTION: Errors
 */
BEGIN
{
	printf("%d\n", "str");
}
