/*
 * ASSERTION: a void parameter of a prototype may not have a name
 * SECTION: Type and Constant Definitions
 */
int f(void nothing);

BEGIN
{
	exit(0);
}
