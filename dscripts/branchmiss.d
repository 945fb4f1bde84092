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
 * EXAMPLE: pmctrace -s branchmiss.d branchmispredictions-10000 5
 *
 *   Mispredictions by process:
 *
 *     sshd                                                          30000
 *     pmct_spin                                                   4120000
 *
 *   Mispredictions by user function:
 *
 *     pmct_spin           pmct_spin`spin_leaf                    4100000
 *
 *   Mispredictions by kernel function:
 *
 *     vmlinux`__schedule                                            10000
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
