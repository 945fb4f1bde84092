/*
 * ASSERTION: speculative output appears only when committed, at the point
 * of the commit, and discarded speculations print nothing.
 * SECTION: Speculative Tracing
 */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	printf("a=%d b=%d\n", a, b);
}

BEGIN
{
	speculate(a);
	printf("kept one\n");
}

BEGIN
{
	speculate(b);
	printf("thrown away\n");
}

BEGIN
{
	speculate(a);
	printf("kept two\n");
}

BEGIN
{
	printf("before commit\n");
}

BEGIN
{
	discard(b);
	commit(a);
}

BEGIN
{
	printf("after commit\n");
	exit(0);
}
