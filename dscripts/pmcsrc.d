#!/usr/local/bin/pmctrace -s
/*
 * pmcsrc.d - list the counter sources a run has configured: the sampled
 * ones with their intervals (pmc:::sample-src) and the ones read at every
 * context switch (pmc:::counter-src); then count what each delivered.
 *
 * USAGE: pmctrace -s pmcsrc.d SAMPLED[-PERIOD] READ [SECONDS]
 *
 *   SAMPLED  a counter to sample, with an optional period (see
 *            pmctrace(1), COUNTER NAMES): branch-misses-10000, or on a
 *            machine without a PMU cpu-clock-1000000
 *   READ     a counter to read at every switch (sched::pmc:off-cpu-READ):
 *            instructionretired, or here task-clock
 *   SECONDS  how long to count (default 1)
 *
 * pmc:::sample-src fires when tracing starts, once per sampled source,
 * with arg0 = the source's index, args[1] = its probe name, arg2 = the new
 * interval and arg3 = the old one (0 at start); it fires again at the end,
 * new and old swapped, when the run ends by Ctrl-C (a run that ends with
 * exit(), as this one does, sees only the start).  pmc:::counter-src fires
 * once at start with arg0 = the number of counters the ::pmc: probes read
 * and args[1] = their names, comma-separated, in the order their values
 * arrive.
 *
 * EXAMPLE: pmctrace -s pmcsrc.d cpu-clock-1000000 task-clock   (2 CPUs)
 *
 *   SRC NAME                                     INTERVAL
 *     0 cpu-clock-1000000                         1000000
 *
 *   COUNTERS READ AT EACH SWITCH: 1
 *       task-clock
 *
 *   DELIVERED
 *       switches reading task-clock                  1243
 *       samples of cpu-clock-1000000                 1993
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

pmc:::counter-src
{
	printf("\nCOUNTERS READ AT EACH SWITCH: %d\n", arg0);
	printf("    %s\n", args[1]);
}

pmc:::$1
{
	@n[strjoin("samples of ", probename)] = count();
}

sched::pmc:off-cpu-$2
{
	@n[strjoin("switches reading ", $$2)] = count();
}

profile:::tick-1s
{
	secs++;
}

profile:::tick-1s
/secs >= ($3 ? $3 : 1)/
{
	printf("\nDELIVERED\n");
	printa("    %-36s %@12d\n", @n);
	exit(0);
}
