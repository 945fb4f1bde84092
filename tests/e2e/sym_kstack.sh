# ASSERTION: kernel stacks print as DTrace's module`function+0xoff frames
# (vmlinux for the core kernel), with no bare addresses in kernel text.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
[ "$(awk 'NR == 1 { print $1 }' /proc/kallsyms)" != 0000000000000000 ] || skip "kallsyms addresses hidden (kptr_restrict)"
"$HELPERS/symtarget" spin 3 </dev/null >/dev/null & tgt=$!
"$PMCTRACE" -qn 'profile-997 /arg0 != 0/ { @[stack()] = count(); } tick-2s { exit(0); }' >out 2>err; rc=$?
kill $tgt 2>/dev/null; wait $tgt 2>/dev/null
if [ $rc != 0 ] && grep -q 'failed to compile' err; then
	skip "pmctrace does not compile stack() yet: $(head -1 err)"
fi
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
grep -Eq '^ +vmlinux`[A-Za-z_][A-Za-z0-9_.]*(\+0x[0-9a-f]+)?$' out || { cat out; fail "no vmlinux frames"; }
lo=$(awk '$3 == "_stext" { print $1 }' /proc/kallsyms)
hi=$(awk '$3 == "_etext" { print $1 }' /proc/kallsyms)
# a bare hex frame inside kernel text would be an unsymbolized address
awk -v lo="$lo" -v hi="$hi" '$1 ~ /^0x[0-9a-f]+$/ { a = substr($1, 3); if (length(a) == 16 && a >= lo && a < hi) { print; bad = 1 } } END { exit bad }' out ||
	fail "bare kernel text addresses in stacks"
exit 0
