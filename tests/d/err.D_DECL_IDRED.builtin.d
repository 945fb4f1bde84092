/*
 * ASSERTION: a built-in variable may not be redeclared.
 * SECTION: Variables/Scalar Variables
 */
int pid;

BEGIN
{
	exit(0);
}
