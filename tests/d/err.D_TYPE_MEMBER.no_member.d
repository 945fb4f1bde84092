/*
 * ASSERTION: member names are checked
 * SECTION: Errors
 */
struct s { int a; };
struct s v;

BEGIN
{
	v.b = 1;
}
