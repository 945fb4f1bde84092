# ASSERTION: the command line profiling front ends (cargo-flamegraph,
# FlameGraph's README) run against dtrace works with pmctrace in its place:
# it follows the -c program, ends when it exits (no hang), and writes
# out.stacks in DTrace's ustack aggregation text, which a DTrace stack
# collapser (tests/e2e/out_lib.py collapse, as stackcollapse.pl) folds into
# stacks where the busy function dominates.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
command -v python3 >/dev/null || skip "no python3"
start=$(date +%s)
timeout 60 "$PMCTRACE" -x ustackframes=100 \
    -n 'profile-997 /pid == $target/ { @[ustack(100)] = count(); }' \
    -o out.stacks -c "$HELPERS/pmct_spin 2" >stdout 2>err; rc=$?
took=$(( $(date +%s) - start ))
[ $rc = 124 ] && fail "still running 60 s after a 2 s program"
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
[ $took -le 10 ] || fail "took $took s to notice the 2 s program had exited"
[ -s out.stacks ] || fail "out.stacks is empty"
[ -s stdout ] && { cat stdout; fail "-o left output on stdout"; }
# DTrace's layout: blank-line separated blocks of 14-space-indented frames
# and a right-aligned count.
awk 'NF == 0 { next } /^              [^ ]+$/ { next } /^ +[0-9]+$/ { next }
    { print "bad line " NR ": " $0; bad = 1 } END { exit bad }' out.stacks ||
    fail "out.stacks is not DTrace's stack aggregation text"
python3 "$TESTROOT/e2e/out_lib.py" collapse out.stacks >folded || fail "collapse failed"
awk '{ t += $NF } /pmct_spin`spin_leaf/ { s += $NF } END {
    if (t < 100 || s * 2 < t) { print "spin_leaf in " s " of " t " samples"; exit 1 } }' folded ||
    { cat folded; fail "spin_leaf does not dominate the folded stacks"; }
grep -q '+0x' folded && fail "collapsed frames kept offsets"
exit 0
