# ASSERTION: a process that started and exited during the run still has
# its user stack symbolized when the aggregation is printed at the end
# (maps come from the MMAP2/COMM/EXIT records, /proc has nothing left).
. "$TESTROOT/e2e/lib.sh"
need_root
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
"$PMCTRACE" -qn 'profile-997 /execname == "symtarget"/ { @[ustack()] = count(); } BEGIN { printf("ready\n"); }' >out 2>err &
pm=$!
wait_ready out
"$HELPERS/symtarget" spin 1 </dev/null >/dev/null
kill -INT $pm
wait $pm; rc=$?
if [ $rc != 0 ] && grep -q 'failed to compile' err; then
	skip "pmctrace does not compile ustack() yet: $(head -1 err)"
fi
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep 'symtarget`st_static_work+0x' out
expect_grep 'symtarget`main+0x' out
exit 0
