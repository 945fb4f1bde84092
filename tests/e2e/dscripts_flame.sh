# dscripts/flame.d: stack aggregations in the layout FlameGraph's
# stackcollapse.pl reads (frames, then the count, blocks apart), with the
# busy process's frames leaf first.
. "$TESTROOT/e2e/lib.sh"
need_root
# A name of its own, so that other tests' spinners do not count here.
cp "$HELPERS/pmct_spin" ./ds_flame_spin || fail "cannot copy the helper"
nice -n -10 ./ds_flame_spin 60 & spin=$!	# niced up: a real share of a CPU under make test-stress
"$PMCTRACE" -s "$TESTROOT/../dscripts/flame.d" 2 >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
# What stackcollapse.pl expects: frame lines (module`function+0xoff, an
# address, or a JIT map's name, which may hold spaces) closed by a count
# alone on its line; blank lines (an empty kernel stack prints as one) are
# skipped; the output ends with a count.
awk 'NF == 0 { next }
    /^ *[0-9]+$/ { if (!frames) bad = NR; frames = 0; blocks++; next }
    /^ +[^ ]/ { frames++; next }
    { bad = NR }
    END { if (bad || frames || blocks == 0) { print "bad line " bad ", " blocks " blocks"; exit 1 } }' out ||
    { cat out; fail "not a DTrace stack aggregation"; }
# Leaf first: spin_leaf, then its caller in ds_flame_spin (spin_middle, or main
# when frame-pointer unwinding skips the frameless leaf's caller).
awk '/`spin_leaf\+0x/ { l = NR } /^ *ds_flame_spin`(spin_middle|main)\+0x/ && l && NR == l + 1 { ok = 1 }
    END { exit !ok }' out || { cat out; fail "no stack with spin_leaf above its caller"; }
# 99 samples a second of one busy CPU at most, over 2 s; a fair part of
# that even on a loaded machine.
n=$(awk '/`spin_leaf\+0x/ { s = 1 } /^ *[0-9]+$/ { if (s) t += $1; s = 0 } END { print t + 0 }' out)
[ "$n" -ge 10 ] && [ "$n" -le 210 ] || { cat out; fail "spin_leaf in $n samples, want 10..210 at 99 Hz over 2 s"; }

# The same script straight to folded stacks (root first, "frames count")
# and to an SVG flame graph, chosen by -x oformat and by -o's extension.
nice -n -10 ./ds_flame_spin 60 & spin=$!	# niced up: a real share of a CPU under make test-stress
"$PMCTRACE" -s "$TESTROOT/../dscripts/flame.d" 2 -x oformat=folded >folded 2>err; rc=$?
"$PMCTRACE" -s "$TESTROOT/../dscripts/flame.d" 1 -o cpu.svg 2>err2; rc2=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "folded: exit status $rc"; }
[ $rc2 = 0 ] || { cat err2; fail "svg: exit status $rc2"; }
awk '!/^[^ ]+( [^ ]+)* [0-9]+$/ { print "bad line " NR ": " $0; exit 1 }' folded || fail "not folded stacks"
grep -Eq 'ds_flame_spin`(spin_middle|main);ds_flame_spin`spin_leaf [0-9]+$' folded ||
    { head -20 folded; fail "no folded path ending caller;spin_leaf"; }
head -c 200 cpu.svg | grep -q '<svg' || fail "cpu.svg is not an SVG"
grep -q 'spin_leaf' cpu.svg || fail "spin_leaf is not in the flame graph"
exit 0
