# ASSERTION: tracing never changes the traced program (issue 24): python3 -c
# (the interpreter itself, libc, libz, ld.so: thousands of probes, a
# quarter million firings) prints the same stdout and stderr and exits with
# the same status bare and under pid$target:::entry and pid$target:::return
# over every module, on the CPU at hand.
. "$TESTROOT/e2e/lib.sh"
. "$TESTROOT/e2e/lib_pid.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
sh "$TESTROOT/mount_tracefs.sh"
[ -w /sys/kernel/tracing/uprobe_events ] || skip "tracefs uprobe_events is not writable here"
# Debian's python3 itself (not a wrapper script such as a pyenv shim)
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
py="/usr/bin/python3 -c 'import json, sys; d = {\"k\": [1, 2.5, \"x\" * 3], \"s\": \"abc/def\".split(\"/\")}; print(json.dumps(d, sort_keys=True)); print(\"%s-%d\" % (\"abc\", 42), sum(range(100))); sys.stderr.write(\"err\\\\n\"); sys.exit(4)'"
same_as_bare entry 10000 "$py"
expect_eq "python's output" '{"k": [1, 2.5, "xxx"], "s": ["abc", "def"]}
abc-42 4950' "$(cat traced.out)"
same_as_bare return 10000 "$py"
exit 0
