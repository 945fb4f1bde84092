/*
 * ASSERTION: printf()'s format must be a string (and a constant one)
 * SECTION: Output Formatting/printf
 */
BEGIN
{
	printf(42);
}
