/*
 * ASSERTION: associative arrays take tuple keys of mixed types; unset elements read as zero; assigning zero deletes.
 * SECTION: Variables/Associative Arrays
 */
#pragma D option quiet

BEGIN
{
	a["x", 1] = 10;
	a["x", 2] = 20;
	a["y", 1] = 30;
	printf("%d %d %d %d\n", a["x", 1], a["x", 2], a["y", 1], a["y", 2]);
	a["x", 1] = 0;
	printf("%d\n", a["x", 1]);
	n["count"]++;
	n["count"]++;
	n["count"] += 5;
	printf("%d\n", n["count"]);
	s[1] = "one";
	printf("[%s] [%s]\n", s[1], s[2]);
	exit(0);
}
