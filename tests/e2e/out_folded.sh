# ASSERTION: -x oformat=folded writes a replayed recording's stack
# aggregation as folded stacks equal to collapsing DTrace's own text output
# of the same run (offsets dropped, equal paths summed); -o x.folded writes
# the same; other keys (execname) become the leading frame.
. "$TESTROOT/e2e/lib.sh"
F="$FIXTURES/local/cpu-clock-g.data"
[ -f "$F" ] || skip "no fixture $F"
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
command -v python3 >/dev/null || skip "no python3"
"$PMCTRACE" -q -x oformat=folded -n 'BEGIN { exit(0); }' >/dev/null 2>probe ||
	skip "-x oformat is not wired into the engine yet: $(head -1 probe)"
P='profile-* { @[ustack()] = count(); }'
"$PMCTRACE" -q -E "$F" -n "$P" >text 2>err || { cat err; fail "text run failed"; }
"$PMCTRACE" -q -E "$F" -n "$P" -x oformat=folded >folded 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
python3 "$TESTROOT/e2e/out_lib.py" collapse text >expect || fail "collapse failed"
[ "$(wc -l <expect)" -ge 3 ] || { cat text; fail "the recording gave too few stacks"; }
diff -u expect folded >diff || { cat diff; fail "folded differs from collapsed DTrace text"; }
grep -q '+0x' folded && fail "an offset survived folding"
"$PMCTRACE" -q -E "$F" -n "$P" -o out.folded 2>err || { cat err; fail "-o out.folded failed"; }
cmp -s folded out.folded || fail "-o out.folded differs from -x oformat=folded"
# execname leads: dropping the first frame gives back the ustack folding
"$PMCTRACE" -q -E "$F" -n 'profile-* { @[execname, ustack()] = count(); }' \
    -x oformat=folded >byexec 2>err || { cat err; fail "execname run failed"; }
sed 's/^[^;]*;//' byexec | awk '{ n = $NF; $NF = ""; sub(/ $/, ""); s[$0] += n }
    END { for (k in s) print k, s[k] }' | LC_ALL=C sort >stripped
LC_ALL=C sort folded >sorted
diff -u sorted stripped || fail "execname frames do not lead the ustack paths"
# keyless aggregations fold as "-", under their names when there are several
"$PMCTRACE" -q -x oformat=folded -n 'BEGIN { @n = count(); @m = sum(3); exit(0); }' >keyless 2>err ||
	{ cat err; fail "keyless run failed"; }
expect_eq "two keyless aggregations" "$(printf '@m;- 3\n@n;- 1')" "$(cat keyless)"
"$PMCTRACE" -q -x oformat=folded -n 'BEGIN { @ = count(); exit(0); }' >keyless 2>err ||
	{ cat err; fail "keyless run failed"; }
expect_eq "one keyless aggregation" "- 1" "$(cat keyless)"
exit 0
