/*
 * ASSERTION: printf rejects extra arguments
 * SECTION: Errors
 */
BEGIN
{
	printf("%d\n", 1, 2);
}
