/*
 * ASSERTION: a bit-field may not be wider than its type
 * SECTION: Errors
 */
struct s { char c : 9; };

BEGIN
{
}
