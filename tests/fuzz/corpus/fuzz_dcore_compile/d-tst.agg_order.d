/*
 * ASSERTION: at exit, every aggregation that printa() has not printed is
 * printed in the order the program first names them, with nothing between.
 * SECTION: Aggregations/Printing Aggregations
 */
#pragma D option quiet

BEGIN
{
	@third["c"] = sum(3);
	@first["a"] = sum(1);
	@second["b"] = sum(2);
	printa(@first);
	printf("--\n");
	exit(0);
}
