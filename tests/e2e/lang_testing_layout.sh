# With _DTRACE_TESTING in the environment (DTrace's test harness sets it),
# the default output leaves out the CPU and ID columns: the header is
# FUNCTION:NAME right-aligned in 32 columns, and so is each probe's name.
. "$TESTROOT/e2e/lib.sh"
_DTRACE_TESTING=t "$PMCTRACE" -n 'BEGIN { trace(7); } BEGIN { exit(0); }' >out 2>err; rc=$?
expect_eq "exit status" 0 "$rc"
printf '%32s\n%32s  %10d\n%32s \n\n' FUNCTION:NAME :BEGIN 7 :BEGIN > want
cmp -s want out || { diff want out; fail "stdout with _DTRACE_TESTING"; }
exit 0
