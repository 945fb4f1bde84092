#!/usr/local/bin/pmctrace -s
/*
 * isr.d - hardware interrupt handler time by irq: how often each handler
 * ran, for how long in total, and the distribution of its durations.
 *
 * USAGE: pmctrace -s isr.d [SECONDS]
 *
 *   SECONDS  stop after this many seconds (default: at Ctrl-C)
 *
 * isr:::isr fires when a handler returns, with args[1] = the handler's
 * name, arg3 = the irq number and arg4 = its duration in nanoseconds.
 * Linux's local timer and inter-processor interrupts do not go through
 * these handlers and are not counted.
 *
 * EXAMPLE: pmctrace -s isr.d 2   (while dd writes a file with O_DIRECT)
 *
 *   IRQ HANDLER                     COUNT     TOTAL_NS
 *    41 virtio3-rx                      2        79629
 *    42 virtio3-tx                      4       149640
 *    36 virtio1-req.0                 412      2975315
 *     ...
 *     virtio1-req.0
 *              value  ------------- Distribution ------------- count
 *               2048 |                                         0
 *               4096 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@   395
 *               8192 |@                                        12
 *              16384 |                                         3
 *              32768 |                                         2
 *              65536 |                                         0
 */

#pragma D option quiet
#pragma D option defaultargs

isr:::isr
{
	@count[arg3, args[1]] = count();
	@total[arg3, args[1]] = sum(arg4);
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
	printf("%3s %-24s %8s %12s\n", "IRQ", "HANDLER", "COUNT", "TOTAL_NS");
	printa("%3d %-24s %@8d %@12d\n", @count, @total);
	printa(@dist);
}
