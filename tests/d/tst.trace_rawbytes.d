/*
 * ASSERTION: with the rawbytes option, trace() of a string prints the
 * bytes as a hex dump instead of the text.
 * SECTION: Options/rawbytes
 */
#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=16

BEGIN
{
	trace("abc");
	exit(0);
}
