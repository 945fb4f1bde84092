/*
 * ASSERTION: the string subroutines follow DTrace's rules at the edges:
 *   substr with negative and out-of-range positions and lengths, index and
 *   rindex with start positions (Perl's clamping, "" special cases), strstr,
 *   basename/dirname of "", "/", "a/", "//a", cleanpath's textual folding
 *   ("/../a" is "/a"), strtoll (base 10 unless given; "0x" only in base 16),
 *   lltostr with a base.
 * SECTION: Actions and Subroutines/Subroutines
 */
#pragma D option quiet

BEGIN
{
	printf("[%s][%s][%s][%s]\n", substr("hello", 1), substr("hello", 1, 2),
	    substr("hello", -2), substr("hello", -10));
	printf("[%s][%s][%s][%s]\n", substr("hello", -10, 3), substr("hello", 10),
	    substr("hello", 2, -1), substr("hello", -10, 7));
	printf("[%s][%s][%s]\n", substr("hello", 0, 100), substr("hello", -3, 2),
	    substr("hello", 5));
	printf("%d %d %d %d\n", index("hello", "l"), rindex("hello", "l"),
	    index("hello", "z"), index("hello", ""));
	printf("%d %d %d %d\n", index("hello", "l", 3), index("hello", "l", 4),
	    index("hello", "l", -5), index("hello", "", 9));
	printf("%d %d %d %d %d\n", rindex("hello", "l", 2), rindex("hello", "l", 10),
	    rindex("hello", ""), rindex("hello", "", -1), rindex("hello", "l", -1));
	printf("%d %d %d\n", index("", ""), rindex("", ""), index("", "a"));
	printf("[%s] [%s]\n", strstr("hello", "ll"), strstr("hello", ""));
	printf("[%s] [%s]\n", strchr("hello", 'l'), strrchr("hello", 'l'));
	printf("[%s] [%s]\n", toupper("Hello, World 1"), tolower("Hello, World 1"));
	printf("[%s] [%s] [%s] [%s] [%s]\n", basename("/usr/lib/"), basename("/"),
	    basename(""), basename("a"), basename("a/b//"));
	printf("[%s] [%s] [%s] [%s] [%s] [%s]\n", dirname("/usr/lib/"), dirname("/"),
	    dirname(""), dirname("a"), dirname("a/"), dirname("/a"));
	printf("[%s] [%s] [%s]\n", dirname("a/b//c"), dirname("//a"), dirname("a//"));
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("/a/./b/../c"), cleanpath("/"),
	    cleanpath("a//b/"), cleanpath("/../a"));
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("a/.."), cleanpath("./a"),
	    cleanpath("/a/b/.."), cleanpath("x/./y/."));
	printf("%d %d %d %d\n", strtoll("123"), strtoll("-0x10", 16), strtoll("0x1f"),
	    strtoll("077"));
	printf("%d %d %d %d\n", strtoll("  +42abc"), strtoll("1F", 16), strtoll("-z", 36),
	    strtoll(""));
	printf("[%s] [%s] [%s] [%s] [%s]\n", lltostr(0), lltostr(-1, 16), lltostr(35, 36),
	    lltostr(8, 8), lltostr(-123));
	printf("[%s] [%s]\n", lltostr(5, 2), lltostr(0, 16));
	exit(0);
}
