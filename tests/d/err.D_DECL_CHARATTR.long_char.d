/*
 * ASSERTION: short and long may not be used with char.
 * SECTION: Types, Operators and Expressions/Data Types and Sizes
 */
long char c;

BEGIN
{
	exit(0);
}
