# dscripts/pmc.d with a software counter: the busy process's user stacks
# come out with its functions, leaf first, and the run ends by itself.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_pmc_spin || fail "cannot copy the helper"
./ds_pmc_spin 5 & spin=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/pmc.d" cpu-clock-1000000 2 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep 'Sampling pmc:::cpu-clock-1000000 in user mode for 2 s' out
expect_grep '^ *ds_pmc_spin *$' out
# Leaf first: spin_leaf, then its caller in ds_pmc_spin (spin_middle, or main
# when frame-pointer unwinding skips the frameless leaf's caller).
awk '/`spin_leaf\+0x/ { l = NR } /^ *ds_pmc_spin`(spin_middle|main)\+0x/ && l && NR == l + 1 { ok = 1 }
    END { exit !ok }' out || { cat out; fail "no stack with spin_leaf above its caller"; }
# Busiest last: the counts never decrease.
awk '/^ *[0-9]+$/ { if ($1 < last) exit 1; last = $1 }' out || { cat out; fail "not sorted by count"; }
# One single-threaded spinner: at most 1000 samples a second at 1 kHz, and
# at least a fair part of that even on a busy machine.
n=$(awk '/^ *ds_pmc_spin *$/ { s = 1; next } s && /^ *[0-9]+$/ { t += $1; s = 0 } END { print t + 0 }' out)
[ "$n" -ge 100 ] && [ "$n" -le 2200 ] || { cat out; fail "ds_pmc_spin's stacks have $n samples, want 100..2200 at 1 kHz over 2 s"; }

# Without a duration it runs until Ctrl-C, then prints the same way.
./ds_pmc_spin 4 & spin=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/pmc.d" cpu-clock >out 2>err & pt=$!
sleep 2
kill -INT $pt; wait $pt; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc after Ctrl-C"; }
expect_grep 'Sampling pmc:::cpu-clock in user mode... Hit Ctrl-C to end.' out
expect_grep '`spin_leaf+0x' out
exit 0
