#!/usr/local/bin/pmctrace -s
/*
 * pmc.d - sample a counter on every CPU and show the user stacks the
 * counted events happened in, busiest last.
 *
 * USAGE: pmctrace -s pmc.d COUNTER[-PERIOD] [SECONDS]
 *
 *   COUNTER  any counter name pmctrace resolves (see pmctrace(1), COUNTER
 *            NAMES): instructionretired, branch-misses, INST_RETIRED.ANY,
 *            or, on a machine without a PMU, cpu-clock or page-faults
 *   PERIOD   sample every PERIOD events (default: the counter's default
 *            period, 1 ms for cpu-clock, every event for page-faults)
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * Only samples taken in user mode (arg1 != 0) are kept.  Each stack is
 * printed with the process name and the number of samples; multiply by
 * PERIOD for an estimate of the events.  The 20 busiest stacks are shown.
 *
 * EXAMPLE: pmctrace -s pmc.d cpu-clock-1000000 2
 *
 *   Sampling pmc:::cpu-clock-1000000 in user mode for 2 s...
 *
 *   pmct_spin
 *                 pmct_spin`spin_leaf+0x1d
 *                 pmct_spin`spin_middle+0x1c
 *                 pmct_spin`main+0x7e
 *                 libc.so.6`__libc_start_call_main+0x7a
 *                 ...
 *              1873
 */

#pragma D option quiet
#pragma D option defaultargs

dtrace:::BEGIN
/$2/
{
	printf("Sampling pmc:::%s in user mode for %d s...\n", $$1, $2);
}

dtrace:::BEGIN
/!$2/
{
	printf("Sampling pmc:::%s in user mode... Hit Ctrl-C to end.\n", $$1);
}

pmc:::$1
/arg1/
{
	@stacks[execname, ustack()] = count();
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
	trunc(@stacks, 20);
	printa(@stacks);
}
