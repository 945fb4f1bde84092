/*
 * ASSERTION: arithmetic on a void pointer has no element size to scale by
 * SECTION: Pointers and Arrays/Pointer Arithmetic
 */
void *p;

BEGIN
{
	trace((long)(p + 1));
}
