# usdt probes: a program with a stapsdt note (written here by hand, as
# <sys/sdt.h> would emit it) traced with -c and -p; register arguments,
# a provider name ending in digits, "__" read as "-".
. "$TESTROOT/e2e/lib.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
command -v cc >/dev/null || skip "no C compiler for the target program"
cat >u.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define P13_PROBE2(a, b) __asm__ volatile( \
	"990: nop\n" \
	".pushsection .note.stapsdt,\"?\",\"note\"\n" \
	".balign 4\n" \
	".4byte 992f-991f, 994f-993f, 3\n" \
	"991: .asciz \"stapsdt\"\n" \
	"992: .balign 4\n" \
	"993: .8byte 990b\n" \
	".8byte _.stapsdt.base\n" \
	".8byte 0\n" \
	".asciz \"p13\"\n" \
	".asciz \"tick__now\"\n" \
	".asciz \"-4@%0 8@%1\"\n" \
	"994: .balign 4\n" \
	".popsection\n" \
	".ifndef _.stapsdt.base\n" \
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
	".weak _.stapsdt.base\n" \
	".hidden _.stapsdt.base\n" \
	"_.stapsdt.base: .space 1\n" \
	".size _.stapsdt.base, 1\n" \
	".popsection\n" \
	".endif\n" \
	:: "r"(a), "r"(b))
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long delay = argc > 2 ? atol(argv[2]) : 0;
	for (int i = 0; i < n; i++) { long v = 1000L + i; P13_PROBE2(i - 5, v); if (delay) usleep(delay * 1000); }
	printf("done\n");
	return 0;
}
C
cc -O1 -o p13usdt u.c || skip "cannot build the target program"
"$PMCTRACE" -qn 'p13$target:::tick-now { @n = count(); @s = sum(arg1); @neg = min(arg0); }
END { printa("n=%@d\n", @n); printa("s=%@d\n", @s); printa("min=%@d\n", @neg); }' -c './p13usdt 50' >out 2>err || { cat err; fail "-c run"; }
expect_grep '^n=50$' out
expect_grep '^s=51225$' out
expect_grep '^min=-5$' out

./p13usdt 100000 2 >/dev/null &
t=$!
wait_mapped $t '/p13usdt$'
"$PMCTRACE" -l -n "p13$t:::" >list 2>&1
grep -Eq "p13$t +p13usdt +tick-now\$" list || { kill $t; cat list; fail "-l of p13$t:::"; }
"$PMCTRACE" -qn "p13$t:p13usdt::tick-now { @[arg0 % 2] = count(); } tick-1s { exit(0); }" >out2 2>err2
rc=$?
kill $t
[ $rc = 0 ] || { cat err2; fail "-p run status $rc"; }
grep -Eq '^ +1 +[1-9][0-9]*$' out2 && grep -Eq '^ +0 +[1-9][0-9]*$' out2 || { cat out2; fail "no tick-now firings for $t"; }
exit 0
