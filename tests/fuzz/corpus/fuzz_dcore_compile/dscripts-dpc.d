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
 *   BLOCK         1        1        10645
 *   SCHED         1       37       794669
 *   TIMER         0       38      1057746
 *   TIMER         1       52      1207574
 *   RCU           1       97      1497652
 *   SCHED         0      111      3185778
 *   RCU           0      123      1753904
 *     ...
 *     TIMER
 *              value  ------------- Distribution ------------- count
 *               2048 |                                         0
 *               4096 |@                                        3
 *               8192 |@@@                                      6
 *              16384 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@          70
 *              32768 |@@@@@                                    11
 *              65536 |                                         0
 *     ...
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
