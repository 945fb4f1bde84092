# A user the kernel forbids gets the permission explained, exit 1.
. "$TESTROOT/e2e/lib.sh"
need_root
command -v setpriv >/dev/null || skip "setpriv is not installed"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] || skip "perf_event_paranoid allows everyone"
cp "$PMCTRACE" ./pmctrace && chmod 755 . ./pmctrace
setpriv --reuid=65534 --regid=65534 --clear-groups ./pmctrace -qn 'profile-99 { @ = count(); }' >out 2>err; rc=$?
expect_eq "status" 1 "$rc"
expect_grep 'perf_event_paranoid' err
exit 0
