/*
 * ASSERTION: only pointers can be dereferenced
 * SECTION: Errors
 */
BEGIN
{
	x = *1;
}
