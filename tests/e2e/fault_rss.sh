# ASSERTION: pmctrace's memory stays flat however many processes come and
# go when no key holds user addresses (the symbolizer frees exited processes
# no aggregation key can need;
# it kept ~1.9 KB for every process ever seen: 30,000 forks took RSS from 7
# to 65 MB), and the user stacks of a process that has exited still
# symbolize in END's aggregations (those processes are kept).
# RSS is read from /proc/PID/status (the kernel's count) once pmctrace has
# processed every record of the forks (a marker exec traced after them).
. "$TESTROOT/e2e/lib.sh"
need_root
# a sanitizer build keeps freed memory in quarantine: without it, memory
# freed is reused, as in the plain build
if grep -q __asan_init "$PMCTRACE"; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"; export ASAN_OPTIONS
fi
mark=tdm$$
cp /bin/true "./$mark"
# rss_growth KEYS: VmRSS growth in KB over 30,000 forks
rss_growth() {
	"$PMCTRACE" -q -n "BEGIN { printf(\"ready\n\"); } profile-997 { @[$1] = count(); }
	    proc:::exec-success /execname == \"$mark\"/ { printf(\"mark\n\"); }" >out 2>err &
	pm=$!
	wait_ready out
	marked() {
		"./$mark"
		i=0; until [ "$(grep -c '^mark$' out)" -ge "$1" ]; do
			i=$((i+1)); [ $i -gt 600 ] && { cat err; fail "the marker exec was never seen"; }; sleep 0.1; done
	}
	"$HELPERS/pmct_forker" 2000 >/dev/null || fail "forker"
	marked 1
	r1=$(awk '/^VmRSS/ { print $2 }' /proc/$pm/status)
	"$HELPERS/pmct_forker" 30000 >/dev/null || fail "forker"
	marked 2
	r2=$(awk '/^VmRSS/ { print $2 }' /proc/$pm/status)
	kill -INT $pm; wait $pm
	echo $((r2 - r1))
}
g=$(rss_growth execname)
echo "@[execname]: RSS grew $g KB over 30,000 forks"
[ "$g" -lt 8192 ] || fail "@[execname]: RSS grew $g KB over 30,000 forks"
# with user stacks in the keys, only the processes that fired are kept
# (their keys need them): growth follows the samples, not the forks
g=$(rss_growth 'ustack()')
echo "@[ustack()]: RSS grew $g KB over 30,000 forks (information)"

# a process that fired keeps its maps: its stacks symbolize after it exits
spin=tds$$
cp "$HELPERS/pmct_spin" "./$spin"
"$PMCTRACE" -q -n "profile-997 /execname == \"$spin\"/ { @[ustack()] = count(); }" \
    -c "./$spin 1" >out 2>err || { cat err; fail "ustack run"; }
grep -q "$spin\`spin_leaf" out || { head -30 out; fail "the exited process's stacks did not symbolize"; }
exit 0
