#!/usr/local/bin/pmctrace -s
/*
 * cachemiss.d - last-level cache misses by function: sample the LLC miss
 * counter and charge each sample's period to the function it hit in.
 *
 * USAGE: pmctrace -s cachemiss.d COUNTER[-PERIOD] [SECONDS]
 *
 *   COUNTER  the miss counter: llcmisses (Intel and AMD, resolved per
 *            model), cache-misses, or a native event such as
 *            MEM_LOAD_RETIRED.L3_MISS; on a machine without a PMU any
 *            counter shows the mechanics, e.g. page-faults
 *   PERIOD   one sample every PERIOD misses (default 100003)
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * The numbers are estimated events, the sum of the sampling periods
 * (arg2); user functions are shown with their process,
 * kernel functions apart.  The 15 busiest of each are shown.
 *
 * EXAMPLE: pmctrace -s cachemiss.d llcmisses-1000 10
 *
 *   User functions, estimated llcmisses-1000 events:
 *
 *     pmct_spin           pmct_spin`spin_leaf                     812000
 *
 *   Kernel functions, estimated llcmisses-1000 events:
 *
 *     vmlinux`clear_page_erms                                      93000
 */

#pragma D option quiet
#pragma D option defaultargs

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
	printf("User functions, estimated %s events:\n", $$1);
	printa(@user);
	printf("\nKernel functions, estimated %s events:\n", $$1);
	printa(@kernel);
}
