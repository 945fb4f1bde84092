# ASSERTION: an unprivileged user (nobody, via setpriv) gets the permission
# explained, exit status 1, for both kinds of probe: perf events (profile)
# and tracepoints (sched:::off-cpu, where tracefs is mounted but not
# readable by that user — it must not be called "not mounted").
. "$TESTROOT/e2e/lib.sh"
need_root
command -v setpriv >/dev/null || skip "setpriv is not installed"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] || skip "perf_event_paranoid allows everyone"
grep -q ' /sys/kernel/tracing tracefs' /proc/self/mounts || skip "tracefs is not mounted"
cp "$PMCTRACE" ./pmctrace && chmod 755 . ./pmctrace
para=$(cat /proc/sys/kernel/perf_event_paranoid)
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups ./pmctrace "$@"; }

nobody -qn 'profile-99 { @ = count(); }' >out 2>err; rc=$?
expect_eq "profile: exit status" 1 "$rc"
expect_eq "profile: message" "pmctrace: could not enable tracing: cannot open profile-99 (cpu 0): permission denied; /proc/sys/kernel/perf_event_paranoid is $para: run as root or with CAP_PERFMON (CAP_SYS_ADMIN on kernels before 5.8), or lower it (sysctl kernel.perf_event_paranoid=-1 for system-wide tracing)" "$(cat err)"
expect_eq "profile: stdout" "" "$(cat out)"

nobody -qn 'sched:::off-cpu { @ = count(); }' >out 2>err; rc=$?
expect_eq "sched: exit status" 1 "$rc"
expect_eq "sched: one line" 1 "$(wc -l < err)"
grep -q '^pmctrace: could not enable tracing: .*permission denied' err || { cat err; fail "sched: no permission explanation"; }
grep -q 'not mounted' err && { cat err; fail "sched: tracefs is mounted, the message says it is not"; }
expect_eq "sched: stdout" "" "$(cat out)"
exit 0
