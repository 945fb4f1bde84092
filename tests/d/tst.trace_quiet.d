/*
 * ASSERTION: with -q, trace() prints values bare: integers in decimal,
 * signed or unsigned as their type is (as the Linux dtrace(1) prints them),
 * strings as they are.
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
