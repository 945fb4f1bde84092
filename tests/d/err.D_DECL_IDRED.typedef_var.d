/*
 * ASSERTION: a typedef name may not be declared as a variable.
 * SECTION: Type and Constant Definitions/Typedef
 */
typedef int foo_t;
int foo_t;

BEGIN
{
	exit(0);
}
