/*
 * ASSERTION: the string subroutines and their edge cases.
 * SECTION: Strings/String Subroutines
 */
#pragma D option quiet

BEGIN
{
	s = "hello, world";
	printf("%d [%s] [%s] [%s]\n", strlen(s), substr(s, 7), substr(s, 0, 5), substr(s, -5));
	printf("%d %d %d %d\n", index(s, "o"), rindex(s, "o"), index(s, "xyz"), index(s, "o", 5));
	printf("[%s] [%s] [%s]\n", strchr(s, ','), strrchr(s, 'o'), strstr(s, "wor"));
	printf("[%s] [%s]\n", strjoin("foo", "bar"), strjoin("", ""));
	printf("[%s] [%s]\n", toupper(s), tolower("MiXeD"));
	printf("[%s] [%s] [%s]\n", lltostr(0), lltostr(-9223372036854775807), lltostr(12345));
	printf("[%s] [%s] [%s] [%s]\n", basename("/usr/bin/ls"), dirname("/usr/bin/ls"),
	    basename("ls"), dirname("ls"));
	printf("[%s]\n", cleanpath("/a//b/./c/../d"));
	exit(0);
}
