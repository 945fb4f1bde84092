/*
 * ASSERTION: with -q, trace() prints values bare: integers in decimal by
 * their size (1 and 2 bytes unsigned, as dtrace(1) prints them, 4 and 8
 * signed), strings as they are.
 * SECTION: Output Formatting/trace
 */
#pragma D option quiet

BEGIN
{
	trace((char)-2);
	trace(" ");
	trace((unsigned char)200);
	trace(" ");
	trace((short)-300);
	trace(" ");
	trace(70000);
	trace(" ");
	trace(-5000000000LL);
	trace("\n");
	exit(0);
}
