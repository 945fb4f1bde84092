/*
 * ASSERTION: speculate() may not follow data-recording actions
 * SECTION: Errors
 */
BEGIN
{
	printf("x");
	speculate(1);
}
