/*
 * ASSERTION: without -q, committed speculative data prints with its own
 * firing's prefix after the committing clause's line; a clause that only
 * assigns records nothing and prints no line.
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
