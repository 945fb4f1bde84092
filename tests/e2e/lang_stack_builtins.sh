# stackdepth, caller, ustackdepth and ucaller read the stacks the providers
# collect when a program uses them (and no stack() or ustack() does), and
# %A prints a plain integer as an address in the -c target.
. "$TESTROOT/e2e/lib.sh"
# Every user-mode sample of the spinner is printed: the first ones can fall
# in ld.so or in a system call while it starts (more often on a loaded
# machine), so one sample in its loop is looked for, not the first.
need_root
"$PMCTRACE" -qn 'profile-99 /pid == $target && arg1/ { printf("%A %A %d\n", arg1, ucaller, ustackdepth); }' \
    -c "$HELPERS/pmct_spin 2" >out 2>err || { cat err; fail "profile status"; }
grep -Eq '^pmct_spin`spin_leaf\+0x[0-9a-f]+ pmct_spin`main\+0x[0-9a-f]+ [3-9]$' out ||
    { cat out err; fail "user pc, ucaller, ustackdepth"; }
"$PMCTRACE" -qn 'sched:::off-cpu /pid == $target/ { printf("%d %a\n", stackdepth, caller); exit(0); }' \
    -c "sleep 0.2" >out 2>err || { cat err; fail "off-cpu status"; }
grep -Eq '^([4-9]|[1-9][0-9]+) vmlinux`[a-z_]+\+0x[0-9a-f]+$' out || { cat out err; fail "stackdepth, caller"; }
exit 0
