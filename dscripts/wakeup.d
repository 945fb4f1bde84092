#!/usr/local/bin/pmctrace -s
/*
 * wakeup.d - wakeup-to-run latency: how long a woken thread waits for a
 * CPU, from the moment another thread wakes it to the moment it runs, as
 * a histogram per process.
 *
 * USAGE: pmctrace -s wakeup.d [SECONDS]
 *
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * sched:::wakeup fires in the waker's context with arg0 = the woken
 * thread's ID; sched:::on-cpu fires in the context of the thread that
 * starts to run.  Latencies are in nanoseconds.  A high tail means
 * threads are runnable but waiting: CPU saturation.
 *
 * EXAMPLE: pmctrace -s wakeup.d 2   (a shell running "sleep 0.05" in a loop,
 *            on a busy machine)
 *
 *     ...
 *     sleep
 *              value  ------------- Distribution ------------- count
 *               4096 |                                         0
 *               8192 |@@@@                                     3
 *              16384 |@@@@@@                                   5
 *              32768 |@@@@@@@                                  6
 *              65536 |@@@@                                     3
 *             131072 |@@@@                                     3
 *             262144 |@@@@@@@@                                 7
 *     ...
 */

#pragma D option quiet
#pragma D option defaultargs

sched:::wakeup
{
	woken[args[0]->pr_lwpid] = timestamp;
}

sched:::on-cpu
/woken[tid]/
{
	@[execname] = quantize(timestamp - woken[tid]);
	woken[tid] = 0;
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
