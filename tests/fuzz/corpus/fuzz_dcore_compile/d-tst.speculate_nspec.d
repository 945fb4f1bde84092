/*
 * ASSERTION: speculation() returns 0 when every buffer is in use, and
 * speculating on 0 records nothing.
 * SECTION: Speculative Tracing
 */
#pragma D option quiet
#pragma D option nspec=1

BEGIN
{
	a = speculation();
	b = speculation();
	printf("a=%d b=%d\n", a, b);
}

BEGIN
{
	speculate(b);
	printf("never\n");
}

BEGIN
{
	commit(a);
	exit(0);
}
