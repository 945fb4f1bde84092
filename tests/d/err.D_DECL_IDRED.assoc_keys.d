/*
 * ASSERTION: an associative array redeclared with other key types is an error.
 * SECTION: Variables/Associative Arrays
 */
int a[int];
int a[string];

BEGIN
{
	exit(0);
}
