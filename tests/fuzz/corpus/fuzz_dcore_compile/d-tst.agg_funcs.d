/*
 * ASSERTION: sum, avg, min, max and stddev print one 16-wide column;
 * avg and stddev are integer results.
 * SECTION: Aggregations/Aggregating functions
 */
#pragma D option quiet

BEGIN
{
	@sum = sum(10);
	@sum = sum(-25);
	@avg = avg(1);
	@avg = avg(2);
	@avg = avg(4);
	@min = min(7);
	@min = min(-3);
	@max = max(7);
	@max = max(-3);
	@sd = stddev(2);
	@sd = stddev(4);
	@sd = stddev(4);
	@sd = stddev(4);
	@sd = stddev(5);
	@sd = stddev(5);
	@sd = stddev(7);
	@sd = stddev(9);
	exit(0);
}
