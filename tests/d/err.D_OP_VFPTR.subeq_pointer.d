/*
 * ASSERTION: an integer cannot be decremented by a pointer
 * SECTION: Types, Operators and Expressions/Assignment Operators
 */
BEGIN
{
	n = 1;
	n -= alloca(8);
}
