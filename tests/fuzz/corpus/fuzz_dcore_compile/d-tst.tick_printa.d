/*
 * ASSERTION: aggregations filled by a tick probe print at END with printa
 * and the exit-time printing skips them.
 * SECTION: Aggregations/Printing Aggregations
 */
#pragma D option quiet

tick-1ms
{
	@ticks["tick"] = count();
	@q = lquantize(n++, 0, 5, 1);
}

tick-1ms
/n == 4/
{
	exit(0);
}

END
{
	printa("%s %@d\n", @ticks);
}
