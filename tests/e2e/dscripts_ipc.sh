# dscripts/ipc.d with two software counters that both count nanoseconds,
# task-clock and cpu-clock: read in one group at every switch, their ratio
# for a busy process is 1 (IPCx100 = 100), and the columns line up.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_ipc_spin || fail "cannot copy the helper"
spinners=
for i in 1 2 3; do ./ds_ipc_spin 5 & spinners="$spinners $!"; done
"$PMCTRACE" -s "$TESTROOT/../dscripts/ipc.d" task-clock cpu-clock 2 >out 2>err; rc=$?
kill $spinners 2>/dev/null; wait
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
head -1 out | grep -q '^PROCESS  *task-clock  *cpu-clock  *IPCx100$' || { cat out; fail "header"; }
line=$(awk '$1 == "ds_ipc_spin"' out)
[ -n "$line" ] || { cat out; fail "no ds_ipc_spin row"; }
set -- $line
[ $# = 4 ] || fail "ds_ipc_spin row has $# columns: $line"
[ "$2" -ge 100000000 ] || fail "ds_ipc_spin accrued only $2 ns of task-clock: $line"
[ "$4" -ge 95 ] && [ "$4" -le 105 ] || { cat out; fail "task-clock/cpu-clock x100 = $4, want about 100"; }
# The ratio column is the ratio of the two sums, for every row.
awk 'NR > 1 && NF == 4 && $3 > 0 { r = int($2 * 100 / $3); if (r != $4) { print "bad row: " $0; bad = 1 } }
    END { exit bad }' out || fail "IPCx100 is not 100 x column 2 / column 3"
exit 0
