/*
 * ASSERTION: constant division by zero is found at compile time
 * SECTION: Errors
 */
BEGIN
{
	x = 10 / 0;
}
