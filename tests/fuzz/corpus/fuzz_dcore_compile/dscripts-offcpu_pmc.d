#!/usr/local/bin/pmctrace -s
/*
 * offcpu_pmc.d - attribute a counter to the threads that accrued it: the
 * counter is read at every context switch, and what it counted since the
 * previous switch on that CPU is charged to the thread leaving the CPU,
 * by process name and by the user stack the thread left the CPU from.
 *
 * USAGE: pmctrace -s offcpu_pmc.d COUNTER [SECONDS]
 *
 *   COUNTER  a counter name without a period (see pmctrace(1), COUNTER
 *            NAMES): instructionretired, llcmisses, branch-misses, ...;
 *            on a machine without a PMU, task-clock (nanoseconds on CPU)
 *            or page-faults
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * sched::pmc:off-cpu-COUNTER fires as a thread leaves a CPU, in its
 * context, with arg5 = the counter's delta over the thread's time slice.
 * Threads of pid 0 (the idle threads) are left out.  The 10 heaviest
 * stacks are shown.
 *
 * EXAMPLE: pmctrace -s offcpu_pmc.d task-clock 2   (3 pmct_spin, 2 CPUs)
 *
 *   task-clock accrued per process:
 *
 *     sed                                                           64472
 *     kworker/0:1H                                                  67145
 *     ...
 *     cc1                                                      1055076156
 *     pmct_spin                                                1103508668
 *
 *   task-clock accrued per user stack at the switch:
 *     ...
 *                 pmct_spin`spin_leaf+0xc
 *                 pmct_spin`main+0x39
 *                 libc.so.6`__libc_start_call_main+0x7a
 *           270121351
 */

#pragma D option quiet
#pragma D option defaultargs

sched::pmc:off-cpu-$1
/pid != 0/
{
	@byname[execname] = sum(arg5);
	@bystack[ustack()] = sum(arg5);
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
	printf("%s accrued per process:\n", $$1);
	printa(@byname);
	printf("\n%s accrued per user stack at the switch:\n", $$1);
	trunc(@bystack, 10);
	printa(@bystack);
}
