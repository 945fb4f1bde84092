/*
 * ASSERTION: predicates must be scalar
 * SECTION: Errors
 */
struct s { int a; };
struct s v;

BEGIN
/v/
{
}
