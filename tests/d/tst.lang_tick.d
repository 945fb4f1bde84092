/*
 * ASSERTION: tick-N fires repeatedly; globals persist across firings; END
 * runs after exit() and sees the final values.
 * SECTION: profile Provider/tick-n probes
 */
#pragma D option quiet

tick-10ms
{
	n++;
}

tick-10ms
/n == 3/
{
	printf("three ticks\n");
	exit(0);
}

END
{
	printf("n=%d\n", n);
}
