# ASSERTION: with tracefs not mounted (a private mount namespace where it is
# unmounted), a tracepoint-based probe (sched:::off-cpu on the perf path,
# -x nobpf) fails with a message that says what is missing and how to mount
# it, exit status 1; probes that need no tracefs (profile, and sched through
# the in-kernel probe, whose raw tracepoints need none) still work there.
. "$TESTROOT/e2e/lib.sh"
need_root
command -v unshare >/dev/null || skip "unshare is not installed"
unshare -m true 2>/dev/null || skip "cannot create a mount namespace here"
cat > inner.sh <<'EOS'
umount /sys/kernel/tracing 2>/dev/null
umount /sys/kernel/debug/tracing 2>/dev/null
umount /sys/kernel/debug 2>/dev/null
grep -q tracefs /proc/self/mounts && { echo "still mounted"; exit 99; }
timeout 20 "$PMCTRACE" -x nobpf -q -n 'sched:::off-cpu { @ = count(); } tick-1s { exit(0); }' >out 2>err
echo $? > rc
timeout 20 "$PMCTRACE" -q -n 'sched:::off-cpu { @ = count(); } tick-1s { exit(0); }' >out3 2>err3
echo $? > rc3
timeout 20 "$PMCTRACE" -q -n 'profile-97 { @ = count(); } tick-1s { exit(0); }' >out2 2>err2
echo $? > rc2
EOS
PMCTRACE=$PMCTRACE unshare -m --propagation private sh inner.sh; irc=$?
[ $irc = 99 ] && skip "could not unmount tracefs in a private namespace"
grep -q tracefs /proc/self/mounts || fail "the test unmounted tracefs outside its namespace"
expect_eq "exit status" 1 "$(cat rc)"
expect_eq "message" "pmctrace: could not enable tracing: tracepoint sched:sched_switch is not available: tracefs is not mounted at /sys/kernel/tracing or the kernel lacks it (try: mount -t tracefs tracefs /sys/kernel/tracing)" "$(cat err)"
expect_eq "stdout" "" "$(cat out)"
expect_eq "profile without tracefs: exit status" 0 "$(cat rc2)"
expect_eq "profile without tracefs: stderr" "" "$(cat err2)"
if grep -q 'not the in-kernel probe' err3; then
	expect_eq "sched without tracefs or BPF: exit status" 1 "$(cat rc3)"
else
	expect_eq "sched through BPF without tracefs: exit status" 0 "$(cat rc3)"
	expect_eq "sched through BPF without tracefs: stderr" "" "$(cat err3)"
	grep -q '^ *[1-9][0-9]*$' out3 || { cat out3; fail "sched through BPF counted no switch"; }
fi
exit 0
