#!/usr/local/bin/pmctrace -s
/*
 * ipc.d - instructions per cycle of each process, from two counters read
 * together at every context switch and charged to the thread leaving.
 *
 * USAGE: pmctrace -s ipc.d INSTRUCTIONS CYCLES [SECONDS]
 *
 *   INSTRUCTIONS  the instruction counter: instructionretired (or
 *                 instructions, INST_RETIRED.ANY)
 *   CYCLES        the cycle counter: unhaltedcorecycles (or cycles)
 *   SECONDS       stop after this many seconds (default: at Ctrl-C)
 *
 * Both counters are one group, so they count over exactly the same time
 * slices.  IPCx100 is 100 times the ratio of the sums, so 245 is an IPC
 * of 2.45.  The script works with any two counters: on a machine without
 * a PMU, "ipc.d page-faults task-clock" gives page faults per 100 ns.
 *
 * EXAMPLE: pmctrace -s ipc.d task-clock cpu-clock 2   (no PMU: two clocks,
 *            so the "IPC" of every process is 1.00)
 *
 *   PROCESS                task-clock        cpu-clock  IPCx100
 *   ...
 *   pmct_spin              1120561628       1120592936       99
 */

#pragma D option quiet
#pragma D option defaultargs

/* Running totals per process name, and 100 x their ratio. */
int64_t ins[string], cyc[string], ipc[string];

/* The two probes fire one after the other at each switch, in this order,
 * in the context of the same thread: keep the first delta for the second. */
sched::pmc:off-cpu-$1
/pid != 0/
{
	self->ins = arg5;
}

sched::pmc:off-cpu-$2
/pid != 0/
{
	this->old = ipc[execname];
	ins[execname] += self->ins;
	cyc[execname] += arg5;
	ipc[execname] = cyc[execname] ? ins[execname] * 100 / cyc[execname] : 0;
	@ins[execname] = sum(self->ins);
	@cyc[execname] = sum(arg5);
	/* The sum of the changes is the latest ratio. */
	@ipc[execname] = sum(ipc[execname] - this->old);
	self->ins = 0;
}

profile:::tick-1s
{
	secs++;
}

profile:::tick-1s
/$3 && secs >= $3/
{
	exit(0);
}

dtrace:::END
{
	printf("%-16s %16s %16s %8s\n", "PROCESS", $$1, $$2, "IPCx100");
	printa("%-16s %@16d %@16d %@8d\n", @ins, @cyc, @ipc);
}
