/*
 * ASSERTION: static is not a storage class D allows for variables.
 * SECTION: Variables/Scalar Variables
 */
static int x;

BEGIN
{
	exit(0);
}
