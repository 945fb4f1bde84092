/*
 * ASSERTION: strings are limited to strsize - 1 characters.
 * SECTION: Options and Tunables/strsize
 */
#pragma D option quiet
#pragma D option strsize=6

BEGIN
{
	s = strjoin("abc", "defgh");
	printf("%s %d\n", s, strlen(s));
	exit(0);
}
