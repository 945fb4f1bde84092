#!/usr/local/bin/pmctrace -s
/*
 * branchmiss.d - branch mispredictions by function: sample the
 * misprediction counter and charge each sample's period to the function
 * the mispredicted branch retired in, per process.
 *
 * USAGE: pmctrace -s branchmiss.d COUNTER[-PERIOD] [SECONDS]
 *
 *   COUNTER  the misprediction counter: branchmispredictions (resolved per
 *            model), branch-misses, or BR_MISP_RETIRED.ALL_BRANCHES; on a
 *            machine without a PMU any counter shows the mechanics, e.g.
 *            cpu-clock
 *   PERIOD   one sample every PERIOD mispredictions (default 100003)
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * The numbers are estimated events (the sum of the sampling periods,
 * arg2).  Kernel-mode samples are charged to the kernel function.  The 15
 * busiest functions and the totals per process are shown.
 *
 * A perf.data file recorded elsewhere replays with -E (and -Z: tick-1s
 * does not exist in a replay): pmctrace -Z -E perf.data -s branchmiss.d branch-misses
 *
 * EXAMPLE: pmctrace -s branchmiss.d cpu-clock-1000000 2   (no PMU here, so
 *            CPU time stands in: the numbers are nanoseconds)
 *
 *   Mispredictions by process:
 *
 *     ...
 *     cc1                                                      1000000000
 *     pmct_spin                                                1030000000
 *
 *   Mispredictions by user function:
 *
 *     ...
 *     ctxsw                                               libc.so.6`__GI___libc_write                                49000000
 *     pmct_spin                                           pmct_spin`spin_leaf                                      1027000000
 *
 *   Mispredictions by kernel function:
 *     ...
 */

#pragma D option quiet
#pragma D option defaultargs

pmc:::$1
{
	@proc[execname] = sum(arg2);
}

pmc:::$1
/arg1/
{
	@user[execname, ufunc(arg0)] = sum(arg2);
}

pmc:::$1
/!arg1/
{
	@kernel[func(arg0)] = sum(arg2);
}

profile:::tick-1s
{
	secs++;
}

profile:::tick-1s
/$2 && secs >= $2/
{
	exit(0);
}

dtrace:::END
{
	trunc(@user, 15);
	trunc(@kernel, 15);
	printf("Mispredictions by process:\n");
	printa(@proc);
	printf("\nMispredictions by user function:\n");
	printa(@user);
	printf("\nMispredictions by kernel function:\n");
	printa(@kernel);
}
