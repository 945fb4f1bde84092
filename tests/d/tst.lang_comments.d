/*
 * ASSERTION: C and C++ comments are ignored everywhere, including inside predicates.
 * SECTION: Program Structure/Comments
 */
#pragma D option quiet
// a line comment
BEGIN /* before the predicate */
/ 1 /* inside */ /
{
	/* a block comment */
	printf("ok\n"); // trailing
	exit(0);
}
