#!/usr/local/bin/pmctrace -s
/*
 * dpc.d - softirq time by vector: how often each softirq vector ran on
 * each CPU, for how long in total, and the distribution of its durations.
 *
 * USAGE: pmctrace -s dpc.d [SECONDS]
 *
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * dpc:::dpc fires when a softirq vector has run, with args[1] = the
 * vector's name (TIMER, NET_RX, RCU, SCHED, ...) and arg4 = the time it
 * took in nanoseconds.  Softirqs are Linux's counterpart of Windows DPCs.
 *
 * EXAMPLE: pmctrace -s dpc.d 2
 *
 *   VECTOR      CPU    COUNT     TOTAL_NS
 *   RCU           0      181       201833
 *   TIMER         1      240       598120
 *
 *     TIMER
 *              value  ------------- Distribution ------------- count
 *                512 |                                         0
 *               1024 |@@@@@@@@@@@@@@@@@@@@                     220
 *               2048 |@@@@@@@@@@@@@@@@@@@@                     218
 *               4096 |                                         0
 */

#pragma D option quiet
#pragma D option defaultargs

dpc:::dpc
{
	@count[args[1], cpu] = count();
	@total[args[1], cpu] = sum(arg4);
	@dist[args[1]] = quantize(arg4);
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
	printf("%-10s %4s %8s %12s\n", "VECTOR", "CPU", "COUNT", "TOTAL_NS");
	printa("%-10s %4d %@8d %@12d\n", @count, @total);
	printa(@dist);
}
