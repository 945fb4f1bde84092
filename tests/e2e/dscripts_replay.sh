# The counter scripts on hardware counters, offline: perf.data files
# recorded on real PMUs replayed with -E (and -Z, since tick-1s does not
# exist in a replay).  Needs no root and no PMU.
. "$TESTROOT/e2e/lib.sh"
cg="$FIXTURES/quipper/perf.data.callgraph-3.8"	# perf record -a -g, cycles, Sandy Bridge
hs="$FIXTURES/quipper/perf.data.hw_and_sw-3.4"	# cycles and cpu-clock, period 1000000
sw="$FIXTURES/local/sched_switch-a.data"	# sched:sched_switch, this kind of VM
for f in "$cg" "$hs" "$sw"; do [ -f "$f" ] || skip "fixture $f is missing"; done
d="$TESTROOT/../dscripts"

# pmc.d cycles: user stacks of the recorded processes, chrome the busiest.
"$PMCTRACE" -Z -E "$cg" -s "$d/pmc.d" cycles >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "pmc.d: exit status $rc"; }
expect_grep '^ *chrome *$' out
awk '/^ *chrome *$/ { s = 1; next } s && /^ +[^ ]+$/ && !/^ *[0-9]+$/ { f++ } /^ *[0-9]+$/ { s = 0 }
    END { exit f < 1 }' out || { cat out; fail "pmc.d: no frames under chrome"; }

# branchmiss.d with the recorded cycles-1000000 standing in: the per-process
# sums of the periods add up to 1000000 x the cycles samples perf counts.
"$PMCTRACE" -Z -E "$hs" -s "$d/branchmiss.d" cycles-1000000 >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "branchmiss.d: exit status $rc"; }
total=$(awk '/by process:/ { s = 1; next } /^Mispredictions/ { s = 0 } s && NF == 2 { t += $2 } END { print t + 0 }' out)
if command -v perf >/dev/null; then
	n=$(perf script -i "$hs" -F event 2>/dev/null | grep -c '^ *cycles:')
	[ "$n" -gt 0 ] || fail "perf script found no cycles samples in $hs"
else
	n=207	# perf script -F event | grep -c cycles: (perf 6.1)
fi
expect_eq "branchmiss.d: sum over processes" "$((n * 1000000))" "$total"

# offcpu.d on recorded switches: histograms keyed by process and reason.
"$PMCTRACE" -Z -E "$sw" -s "$d/offcpu.d" >out 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "offcpu.d: exit status $rc"; }
grep -Eq '^ *[^ ]+ +(blocked|preempted) *$' out || { cat out; fail "offcpu.d: no 'process reason' keys"; }
expect_grep 'value  *-* Distribution -* count' out
exit 0
