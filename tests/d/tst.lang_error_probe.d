/*
 * ASSERTION: a runtime fault aborts the clause, discards its output, and fires dtrace:::ERROR with the fault in arg4.
 * SECTION: Program Structure/The ERROR probe
 */
#pragma D option quiet

BEGIN
{
	printf("lost ");
	x = 0;
	y = 10 / x;
	printf("never\n");
}

BEGIN
{
	printf("next clause runs\n");
}

ERROR
{
	printf("ERROR: fault %d (%s)\n", arg4, arg4 == DTRACEFLT_DIVZERO ? "divide" : "other");
}

BEGIN
{
	p = (int *)8;
	z = *p;
}

BEGIN
{
	exit(0);
}
