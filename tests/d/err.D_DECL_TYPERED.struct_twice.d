/*
 * ASSERTION: a struct may be defined once
 * SECTION: Errors
 */
struct s { int a; };
struct s { int b; };

BEGIN
{
}
