/* args: -C -D ANSWER=42 */
/*
 * ASSERTION: -C runs the C preprocessor: macros and -D definitions expand,
 * and line numbers stay those of the script.
 * SECTION: Scripting/The C Preprocessor
 */
#pragma D option quiet

#define SQ(x)	((x) * (x))

BEGIN
{
	printf("%d %d %d\n", SQ(7), ANSWER, __LINE__);
	exit(0);
}
