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
 * A perf.data file recorded elsewhere replays with -E (and -Z: tick-1s
 * does not exist in a replay): pmctrace -Z -E perf.data -s cachemiss.d cycles
 *
 * EXAMPLE: pmctrace -s cachemiss.d cpu-clock-1000000 2   (no PMU here, so
 *            CPU time stands in: the numbers are nanoseconds)
 *
 *   User functions, estimated cpu-clock-1000000 events:
 *
 *     ...
 *     cpu_tree                                            cpu_tree`ct_leaf                                           94000000
 *     pmct_spin                                           pmct_spin`spin_leaf                                       755000000
 *
 *   Kernel functions, estimated cpu-clock-1000000 events:
 *
 *     ...
 *     vmlinux`_raw_spin_lock                                     13000000
 *     vmlinux`exc_page_fault                                     37000000
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
