/* args: -x defaultargs */
/*
 * ASSERTION: with defaultargs, unset $N are 0 and $$N are empty strings.
 * SECTION: Scripting/Macro Variables
 */
#pragma D option quiet

BEGIN
{
	printf("%d [%s]\n", $3, $$3);
	exit(0);
}
