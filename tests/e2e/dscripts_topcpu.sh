# dscripts/topcpu.d: every second a timestamped table of the busiest
# processes; a process spinning on one CPU gets up to 99 samples a second.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_top_spin || fail "cannot copy the helper"
# Niced up: the counts below need it to get a real share of a CPU even
# when every CPU is saturated (make test-stress).
nice -n -10 ./ds_top_spin 60 & spin=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/topcpu.d" 2 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
[ "$(grep -c '^ *PID COMMAND  *SAMPLES$' out)" = 2 ] || { cat out; fail "want 2 tables in 2 s"; }
# %Y: "2026 Nov 22 00:41:07" above each table.
[ "$(grep -cE '^[0-9]{4} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}$' out)" = 2 ] ||
    { cat out; fail "want a %Y timestamp above each table"; }
# One spinning thread: at most 99 samples a second (a little slack for the
# timer), and a real share even on a loaded machine; no table holds more
# than ncpu x 99.
ncpu=$(getconf _NPROCESSORS_ONLN)
awk -v p=$spin '$1 == p && $2 == "ds_top_spin" { n++; if ($3 < 5 || $3 > 105) bad = $3 }
    END { exit n != 2 || bad != "" }' out || { cat out; fail "ds_top_spin (pid $spin) should have 5..105 samples in each table"; }
awk -v max=$((ncpu * 105)) '/PID COMMAND/ { if (t > max) exit 1; t = 0; next } NF >= 3 && $1 ~ /^[0-9]+$/ && $NF !~ /:/ { t += $NF }
    END { exit t > max }' out || { cat out; fail "more than $ncpu x 99 samples in a second"; }
awk '$1 ~ /^[0-9]+$/ && NF >= 3 && $1 == 0 { exit 1 }' out || fail "the idle threads (pid 0) are listed"
exit 0
