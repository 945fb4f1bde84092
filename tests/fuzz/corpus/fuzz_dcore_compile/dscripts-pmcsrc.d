#!/usr/local/bin/pmctrace -s
/*
 * pmcsrc.d - list the sampled counter sources a run has configured, with
 * their intervals, then count the samples each delivered.
 *
 * USAGE: pmctrace -s pmcsrc.d COUNTER[-PERIOD] [SECONDS]
 *
 *   COUNTER  a counter name (see pmctrace(1), COUNTER NAMES), with an
 *            optional period: branch-misses-10000, or here cpu-clock
 *   SECONDS  how long to count samples (default 1)
 *
 * pmc:::sample-src fires when tracing starts, once per sampled source,
 * with arg0 = the source's index, args[1] = its probe name, arg2 = the new
 * interval and arg3 = the old one (0 at start).  It fires again at the
 * end, new and old swapped, when the run ends by Ctrl-C; a run that ends
 * with exit(), as this one does, sees only the start.
 *
 * EXAMPLE: pmctrace -s pmcsrc.d cpu-clock-1000000   (2 CPUs)
 *
 *   SRC NAME                                     INTERVAL
 *     0 cpu-clock-1000000                         1000000
 *
 *   SAMPLES
 *       cpu-clock-1000000                            1991
 */

#pragma D option quiet
#pragma D option defaultargs

dtrace:::BEGIN
{
	printf("%3s %-36s %12s\n", "SRC", "NAME", "INTERVAL");
}

pmc:::sample-src
/arg3 == 0/
{
	printf("%3d %-36s %12d\n", arg0, args[1], arg2);
}

pmc:::$1
{
	@samples[probename] = count();
}

profile:::tick-1s
{
	secs++;
}

profile:::tick-1s
/secs >= ($2 ? $2 : 1)/
{
	printf("\nSAMPLES\n");
	printa("    %-36s %@12d\n", @samples);
	exit(0);
}
