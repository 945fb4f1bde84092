/*
 * ASSERTION: globals keep their value across probes, take the type of their first assignment and read as zero when declared but unset.
 * SECTION: Variables/Scalar Variables
 */
#pragma D option quiet

int cnt;
string name;

BEGIN
{
	printf("%d [%s]\n", cnt, name);
	cnt = 41;
	name = "first";
}

BEGIN
{
	cnt++;
	name = strjoin(name, "+");
	x = timestamp;
	x = 0;
	printf("%d %s %d\n", cnt, name, x);
	exit(0);
}
