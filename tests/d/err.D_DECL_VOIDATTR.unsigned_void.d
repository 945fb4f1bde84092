/*
 * ASSERTION: signed, unsigned, short and long may not be used with void.
 * SECTION: Types, Operators and Expressions/Data Types and Sizes
 */
unsigned void *p;

BEGIN
{
	exit(0);
}
