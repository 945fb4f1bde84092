/*
 * ASSERTION: an integer cannot be incremented by a string
 * SECTION: Types, Operators and Expressions/Assignment Operators
 */
BEGIN
{
	n = 1;
	n += "two";
}
