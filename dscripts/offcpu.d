#!/usr/local/bin/pmctrace -s
/*
 * offcpu.d - time threads spend off the CPU, as a histogram per process,
 * split by why they left: blocked (waiting for I/O, a lock, a sleep) or
 * preempted while still runnable.
 *
 * USAGE: pmctrace -s offcpu.d [SECONDS]
 *
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * sched:::off-cpu stamps the thread leaving (arg2 is Linux's prev_state:
 * 0 when it was preempted while runnable); sched:::on-cpu, in the context
 * of the thread arriving, measures how long it was away.  Times are in
 * nanoseconds.  The idle threads (pid 0) and pmctrace itself are left out.
 *
 * EXAMPLE: pmctrace -s offcpu.d 2   (a shell running "sleep 0.3" in a loop)
 *
 *     ...
 *     sleep                                               blocked
 *              value  ------------- Distribution ------------- count
 *          134217728 |                                         0
 *          268435456 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 5
 *          536870912 |                                         0
 *
 *     syscalls                                            blocked
 *              value  ------------- Distribution ------------- count
 *               4096 |                                         0
 *               8192 |@@@@@@@@@@@@@@@@                         140
 *              16384 |@@@@@@@@@@@@@@@@@@@                      174
 *              32768 |@                                        13
 *     ...
 */

#pragma D option quiet
#pragma D option defaultargs

sched:::off-cpu
/pid != 0 && pid != $pid/
{
	self->ts = timestamp;
	self->why = arg2 ? "blocked" : "preempted";
}

sched:::on-cpu
/self->ts/
{
	@[execname, self->why] = quantize(timestamp - self->ts);
	self->ts = 0;
	self->why = 0;
}

profile:::tick-1s
{
	secs++;
}

profile:::tick-1s
/$1 && secs >= $1/
{
	exit(0);
}
