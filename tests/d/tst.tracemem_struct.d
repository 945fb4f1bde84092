/*
 * ASSERTION: tracemem() prints a hex and ASCII dump: a column header, then
 * 16 bytes per row with their offset.
 * SECTION: Actions/tracemem
 */
#pragma D option quiet

struct two {
	int a;
	char s[20];
};

struct two t;

BEGIN
{
	t.a = 0x41424344;
	t.s[0] = 'h';
	t.s[1] = 'i';
	t.s[2] = '!';
	tracemem(&t, 24);
	exit(0);
}
