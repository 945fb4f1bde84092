# vminfo provider: as_fault/prot_fault from the x86 page-fault tracepoints
# for a program that touches a known number of fresh pages.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -d /sys/kernel/tracing/events/exceptions/page_fault_user ] || skip "no exceptions:page_fault_user tracepoint (not x86?)"
command -v cc >/dev/null || skip "no C compiler for the workload"
cat >touch.c <<'C'
#include <sys/mman.h>
int main(void) {
	char *p = mmap(0, 2000 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) return 1;
	for (int i = 0; i < 2000; i++) p[i * 4096] = 1;
	return 0;
}
C
cc -O1 -o p13touch touch.c || skip "cannot build the workload"
"$PMCTRACE" -l -P vminfo >list 2>&1
for p in as_fault kernel_asflt prot_fault maj_fault; do
	grep -Eq " vminfo +$p\$" list || { cat list; fail "vminfo:::$p not listed"; }
done
"$PMCTRACE" -qn '
vminfo:::as_fault { @mem[execname] = sum(arg0); }
vminfo:::as_fault /execname == "p13touch" && arg1 >= 0x1000/ { @a = count(); }
BEGIN { printf("ready\n"); }' >out 2>err &
p=$!
wait_ready out
./p13touch
kill -INT $p
wait $p || { cat err; fail "status $?"; }
n=$(awk '$1 == "p13touch" { print $2 }' out)
[ -n "$n" ] && [ "$n" -ge 2000 ] && [ "$n" -lt 4000 ] || { cat out; fail "p13touch: $n faults, want 2000..3999"; }
exit 0
