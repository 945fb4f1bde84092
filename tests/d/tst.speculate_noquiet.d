/*
 * ASSERTION: without -q, committed speculative data prints with its own
 * firing's prefix after the committing clause's line; every clause that
 * fires prints a line, even one that records nothing.
 * SECTION: Speculative Tracing
 */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("spec");
}

BEGIN
{
	trace(1);
}

BEGIN
{
	commit(s);
	exit(0);
}
