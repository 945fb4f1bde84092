#!/usr/sbin/dtrace -s
/*
 * ASSERTION: a #! first line is ignored; #pragma D option applies to the program.
 * SECTION: Program Structure/Interpreter files and pragmas
 */
#pragma D option quiet
#pragma D option strsize=4

BEGIN
{
	printf("%s\n", strjoin("ab", "cd"));
	exit(0);
}
