# ASSERTION: tracing never changes the traced program (issue 24): a C program
# leaning on libc's string functions (which glibc runs as SSE2, AVX2 or
# EVEX variants by CPU) and on vfork, posix_spawn, system, longjmp and
# swapcontext prints the same stdout and stderr and exits with the same
# status bare and under pid$target:::entry and pid$target:::return over
# every module, on the CPU at hand.
. "$TESTROOT/e2e/lib.sh"
. "$TESTROOT/e2e/lib_pid.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
sh "$TESTROOT/mount_tracefs.sh"
[ -w /sys/kernel/tracing/uprobe_events ] || skip "tracefs uprobe_events is not writable here"
cp "$HELPERS/pmct_strings" .
same_as_bare entry 300 ./pmct_strings
expect_eq "exit status" "status 3" "$(cat traced.st)"
expect_grep "^back in main again$" traced.out
same_as_bare return 300 ./pmct_strings
exit 0
