/*
 * ASSERTION: an associative array keeps its key signature
 * SECTION: Errors
 */
BEGIN
{
	a[1] = 1;
	a[1, 2] = 2;
}
