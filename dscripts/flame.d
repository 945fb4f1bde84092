#!/usr/local/bin/pmctrace -s
/*
 * flame.d - sample on-CPU stacks, kernel and user, at 99 Hz on every CPU,
 * for a CPU flame graph.
 *
 * USAGE: pmctrace -s flame.d [SECONDS] -o cpu.svg
 *        pmctrace -s flame.d [SECONDS] -x oformat=folded > cpu.folded
 *        pmctrace -s flame.d [SECONDS] > out.stacks
 *
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * -o cpu.svg writes a self-contained interactive flame graph; -x
 * oformat=folded writes folded stacks ("root;...;leaf count") for
 * flamegraph.pl, inferno or speedscope; plain output is DTrace's
 * aggregation of stacks, which Brendan Gregg's stackcollapse.pl reads:
 * each sample's kernel frames then its user frames, leaf first, then the
 * count.  The idle threads (pid 0) and pmctrace itself are left out.
 * 99 Hz rather than 100 keeps the samples from marching in step with
 * timer-driven work.
 *
 * EXAMPLE: pmctrace -s flame.d 2   (pmct_spin running)
 *
 *   ...
 *
 *                 pmct_spin`spin_leaf+0xc
 *                 pmct_spin`main+0x39
 *                 libc.so.6`__libc_start_call_main+0x7a
 *                 100
 *
 *   A sample taken in user mode has an empty kernel stack, which prints as
 *   the blank line above its user frames; stackcollapse.pl skips it.
 *
 * EXAMPLE: pmctrace -s flame.d 2 -x oformat=folded
 *
 *   ...
 *   libc.so.6`__libc_start_call_main;pmct_spin`main;pmct_spin`spin_leaf 38
 *   ...
 */

#pragma D option quiet
#pragma D option defaultargs

profile:::profile-99
/pid != 0 && pid != $pid/
{
	@[stack(), ustack()] = count();
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
