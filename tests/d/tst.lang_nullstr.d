/*
 * ASSERTION: a NULL string (strchr() that finds nothing, stringof(0)) may
 * be compared with NULL, but recording it faults with invalid address
 * (0x0): the clause is abandoned with what it had recorded, the next
 * clause runs.
 * SECTION: Strings / Errors
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", strchr("abc", 'z'));
	printf("not reached\n");
}

BEGIN
{
	printf("%d %d\n", strchr("abc", 'z') == NULL, strchr("abc", 'b') != NULL);
	trace(stringof(0));
}

BEGIN
{
	printf("%s\n", strchr("abc", 'b'));
	exit(0);
}
