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
 * A perf.data file recorded elsewhere replays with -E (and -Z: tick-1s
 * does not exist in a replay): pmctrace -Z -E perf.data -s pmc.d cycles
 *
 * EXAMPLE: pmctrace -s pmc.d cpu-clock-1000000 2   (pmct_spin running)
 *
 *   Sampling pmc:::cpu-clock-1000000 in user mode for 2 s...
 *   ...
 *     pmct_spin
 *                 pmct_spin`spin_leaf+0x16
 *                 pmct_spin`main+0x39
 *                 libc.so.6`__libc_start_call_main+0x7a
 *                 239
 *     pmct_spin
 *                 pmct_spin`spin_leaf+0xc
 *                 pmct_spin`main+0x39
 *                 libc.so.6`__libc_start_call_main+0x7a
 *                 595
 *
 *   Each instruction address is its own stack, as in DTrace; spin_leaf's
 *   caller spin_middle is missing because spin_leaf sets up no frame and
 *   the stacks are walked by frame pointers.
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
