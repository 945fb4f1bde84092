/*
 * ASSERTION: a prototype's parameter may not be an associative array
 * SECTION: Type and Constant Definitions
 */
int f(int table[string]);

BEGIN
{
	exit(0);
}
