/*
 * ASSERTION: a storage class alone declares an int ("self x;", "this y;",
 * as in C); a variable first used by ++ or -- is a 64-bit integer.
 * SECTION: Variables/Thread-Local Variables; Variables/Clause-Local Variables
 */
#pragma D option quiet

self a;
this b;

BEGIN
{
	self->a = 0x7fffffff;
	self->a++;
	this->b = 3;
	printf("%d %d %d\n", self->a, sizeof (self->a), this->b);
	this->c++;
	self->d--;
	printf("%d %d %d %d\n", this->c, sizeof (this->c), self->d,
	    sizeof (self->d));
	exit(0);
}
