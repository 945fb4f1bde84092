/*
 * ASSERTION: #pragma D option lines apply to the whole program, wherever
 *   they appear: quiet and strsize set after the clauses still apply to them,
 *   and aggsortrev set between clauses applies to the END printa.
 * SECTION: Options and Tunables/Setting options; Program Structure/Pragmas
 */
BEGIN
{
	s = strjoin("abc", "defgh");
	printf("%s %d\n", s, strlen(s));
	trace("traced");
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
}

#pragma D option aggsortrev

BEGIN
{
	exit(0);
}

END
{
	printa("%s %@d\n", @a);
}

#pragma D option strsize=6
#pragma D option quiet
