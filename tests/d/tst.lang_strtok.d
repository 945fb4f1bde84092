/*
 * ASSERTION: strtok() continues the previous string when its first argument is NULL.
 * SECTION: Strings/strtok
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]", strtok("/usr/local/bin", "/"));
	printf("[%s]", strtok(NULL, "/"));
	printf("[%s]\n", strtok(NULL, "/"));
	exit(0);
}
