/*
 * ASSERTION: self-> variables persist across clauses and probes; this-> variables are shared by the clauses of one probe firing.
 * SECTION: Variables/Thread-Local and Clause-Local Variables
 */
#pragma D option quiet

BEGIN
{
	self->x = 5;
	this->y = 7;
}

BEGIN
{
	printf("%d %d\n", self->x, this->y);
	self->x = 0;
}

END
{
	printf("%d\n", self->x);
}

BEGIN
{
	exit(0);
}
