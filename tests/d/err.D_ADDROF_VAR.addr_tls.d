/*
 * ASSERTION: the address of a dynamic variable cannot be taken
 * SECTION: Errors
 */
BEGIN
{
	self->x = 1;
	p = &self->x;
}
