# ASSERTION: ufunc() of a profile sample names the hot function of a live
# process exactly (module`function), its static function included.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
"$HELPERS/symtarget" spin 4 </dev/null >/dev/null & tgt=$!
"$PMCTRACE" -qn 'profile-997 /pid == '$tgt'/ { @[ufunc(arg1)] = count(); } tick-2s { exit(0); }' >out 2>err; rc=$?
kill $tgt 2>/dev/null; wait $tgt 2>/dev/null
if [ $rc != 0 ] && grep -q 'failed to compile' err; then
	skip "pmctrace does not compile ufunc() yet: $(head -1 err)"
fi
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep 'symtarget`st_static_work' out
# every key is module`function: no offsets, no bare addresses for our code
grep 'symtarget`' out | grep -q '+0x' && fail "ufunc printed an offset"
exit 0
