/*
 * ASSERTION: clauses for one probe run in program order; a false predicate skips only its clause; empty clauses are allowed.
 * SECTION: Program Structure/Predicates and clause order
 */
#pragma D option quiet

BEGIN
/1 == 2/
{
	printf("no\n");
}

BEGIN
/(1 + 1) / 2 == 1/
{
	printf("division in a predicate\n");
}

BEGIN
{
}

dtrace:::BEGIN,
BEGIN
{
	n++;
}

BEGIN
{
	printf("%d\n", n);
	exit(0);
}
