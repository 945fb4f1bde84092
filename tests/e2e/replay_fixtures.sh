# Every perf.data fixture in the repository, replayed: pmctrace's sample
# count equals perf's (perf report --stats, SAMPLE events), pipe-mode
# files included.  Each sample is counted once: pmc:::* (whatever aliases
# a counter has) for sampled counters, tracepoint:::* for tracepoints.
# The table printed is the issue-20 fixture table; a fresh perf record -o -
# pipe is checked the same way.
. "$TESTROOT/e2e/lib.sh"
command -v perf >/dev/null || skip "perf is not installed"
perf_samples() { perf report --stats -i "$1" 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }'; }
ours() {
	"$PMCTRACE" -E "$1" -Zqn '
pmc:::* /probename != "sample-src" && probename != "counter-src"/ { @n = count(); }
tracepoint:::* { @n = count(); }
END { printa("%@d\n", @n); }' 2>err | head -1
}
printf '%-58s %8s %8s\n' file perf pmctrace
bad=0 n=0
for f in $(cd "$FIXTURES" && find . -type f -name '*data*' | sort); do
	want=$(perf_samples "$FIXTURES/$f")
	[ -n "$want" ] || want=0
	got=$(ours "$FIXTURES/$f")
	[ -n "$got" ] || got="error: $(head -1 err)"
	printf '%-58s %8s %8s\n' "${f#./}" "$want" "$got"
	[ "$want" = "$got" ] || bad=$((bad+1))
	n=$((n+1))
done
[ "$n" -ge 20 ] || fail "only $n fixtures found under $FIXTURES"
# A pipe written now by this machine's perf.
perf record -q -e cpu-clock -c 100000 -o - -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' \
	> fresh.pipe.data 2>/dev/null || skip "perf record -o - failed"
want=$(perf_samples fresh.pipe.data)
got=$(ours fresh.pipe.data)
printf '%-58s %8s %8s\n' "(perf record -o -)" "$want" "$got"
[ "$want" -gt 0 ] || fail "perf recorded no samples in the pipe"
[ "$want" = "$got" ] || bad=$((bad+1))
[ $bad = 0 ] || fail "$bad files where pmctrace's sample count differs from perf's"
exit 0
