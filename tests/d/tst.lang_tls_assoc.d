/*
 * ASSERTION: thread-local variables may be associative arrays with tuple
 * keys; unset elements read as zero; ++ and zero-assignment work on them.
 * SECTION: Variables/Thread-Local Variables
 */
#pragma D option quiet

BEGIN
{
	self->seen["read", 3] = 10;
	self->seen["read", 3]++;
	self->seen["write", 1] = 7;
	printf("%d %d %d\n", self->seen["read", 3], self->seen["write", 1],
	    self->seen["open", 0]);
	self->seen["write", 1] = 0;
	printf("%d\n", self->seen["write", 1]);
	exit(0);
}
