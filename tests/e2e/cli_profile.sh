# profile-99 on every CPU counts a busy process by name; tick-2s ends it.
. "$TESTROOT/e2e/lib.sh"
need_root
"$HELPERS/pmct_spin" 4 & spin=$!
"$PMCTRACE" -qn 'profile-99 { @[execname] = count(); } tick-2s { exit(0); }' >out 2>err; rc=$?
kill $spin 2>/dev/null; wait $spin 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep 'pmct_spin' out
# DTrace's default printa layout: a blank line, then key and count columns.
n=$(awk '$1 == "pmct_spin" { print $2 }' out)
[ -n "$n" ] && [ "$n" -ge 40 ] && [ "$n" -le 260 ] || fail "pmct_spin sampled $n times in 2 s at 99 Hz"
exit 0
