#!/usr/local/bin/pmctrace -s
/*
 * topcpu.d - the processes using the CPUs, refreshed every second: CPU
 * samples at 99 Hz on every CPU, per process.
 *
 * USAGE: pmctrace -s topcpu.d [SECONDS]
 *
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * Each second prints the 10 processes with the most samples in that
 * second.  At 99 Hz, 99 samples are one CPU fully busy for the second.
 * The idle threads (pid 0) are left out.
 *
 * EXAMPLE: pmctrace -s topcpu.d 1   (pmct_spin running on a busy machine)
 *
 *   2026 Nov 22 00:21:11
 *          PID COMMAND                 SAMPLES
 *         8893 test_sampler_li               1
 *        16704 as                            7
 *        16680 bpftrace                      9
 *        16661 awk                          15
 *        16660 perf                         29
 *        16699 ctxsw                        33
 *        16706 cc1                          48
 *        16701 pmct_spin                    53
 */

#pragma D option quiet
#pragma D option defaultargs

profile:::profile-99
/pid != 0/
{
	@samples[pid, execname] = count();
}

profile:::tick-1s
{
	secs++;
	trunc(@samples, 10);
	printf("\n%Y\n", walltimestamp);
	printf("%10s %-20s %10s\n", "PID", "COMMAND", "SAMPLES");
	printa("%10d %-20s %@10d\n", @samples);
	trunc(@samples);
}

profile:::tick-1s
/$1 && secs >= $1/
{
	exit(0);
}
