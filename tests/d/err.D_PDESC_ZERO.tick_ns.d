/*
 * ASSERTION: a profile rate out of range (here every nanosecond) names no
 * probe, so the description matches none, as in DTrace
 * SECTION: profile Provider
 */
tick-1ns
{
	exit(0);
}
