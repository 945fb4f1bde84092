/*
 * ASSERTION: probe identity built-ins and process facts in BEGIN.
 * SECTION: Variables/Built-in Variables
 */
#pragma D option quiet

BEGIN
{
	printf("%s:%s:%s:%s %d\n", probeprov, probemod, probefunc, probename, id);
	printf("%d %d %d\n", pid > 0, tid > 0, timestamp > 0);
	printf("%d %d\n", curpsinfo->pr_pid == pid, curlwpsinfo->pr_lwpid == tid);
	printf("%d\n", walltimestamp > 1000000000000000000);
	exit(0);
}
