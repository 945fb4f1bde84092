#!/usr/local/bin/pmctrace -s
/*
 * offcpu.d - time threads spend off the CPU: a histogram per process, split
 * by why they left (blocked: waiting for I/O, a lock, a sleep; preempted:
 * still runnable), then the ten kernel+user stacks where they waited
 * longest, with the total time waited in each.
 *
 * USAGE: pmctrace -s offcpu.d [SECONDS [EXECNAME]]
 *
 *   SECONDS   stop after this many seconds (0 or none: at Ctrl-C)
 *   EXECNAME  only threads of processes with this name
 *
 * sched:::off-cpu stamps the thread leaving (arg2 is Linux's prev_state:
 * 0 when it was preempted while runnable); sched:::on-cpu, in the context
 * of the thread arriving, measures how long it was away, and its stack()
 * and ustack() are where that thread went to sleep.  Times are in
 * nanoseconds.  The idle threads (pid 0) and pmctrace itself are left out.
 * For an off-CPU flame graph of the same stacks:
 *   pmctrace -n 'sched:::off-cpu { self->ts = timestamp; }
 *     sched:::on-cpu /self->ts/ { @[stack(), ustack()] = sum(timestamp - self->ts);
 *     self->ts = 0; }' -o offcpu.svg
 *
 * EXAMPLE: pmctrace -s offcpu.d 2 sleep   (a shell running "sleep 0.3" in a loop)
 *
 *   sleep                                               blocked
 *            value  ------------- Distribution ------------- count
 *        134217728 |                                         0
 *        268435456 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 5
 *        536870912 |                                         0
 *
 *
 *   sleep
 *             vmlinux`__schedule+0x618
 *             vmlinux`schedule+0x23
 *             vmlinux`do_nanosleep+0x5e
 *             vmlinux`hrtimer_nanosleep+0x74
 *             vmlinux`common_nsleep+0x30
 *             vmlinux`__x64_sys_clock_nanosleep+0xce
 *             vmlinux`do_syscall_64+0x71
 *             vmlinux`entry_SYSCALL_64_after_hwframe+0x76
 *
 *             libc.so.6`__GI___clock_nanosleep+0x23
 *        301203448
 *   ...
 */

#pragma D option quiet
#pragma D option defaultargs

sched:::off-cpu
/pid != 0 && pid != $pid && ($$2 == "" || execname == $$2)/
{
	self->ts = timestamp;
	self->why = arg2 ? "blocked" : "preempted";
}

sched:::on-cpu
/self->ts/
{
	@[execname, self->why] = quantize(timestamp - self->ts);
	@bystack[execname, stack(), ustack()] = sum(timestamp - self->ts);
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

dtrace:::END
{
	printa(@);
	trunc(@bystack, 10);
	printa(@bystack);
}
