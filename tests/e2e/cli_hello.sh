# The first command a DTrace user types: BEGIN, printf, exit; with and
# without -q, stdout and stderr exactly as DTrace prints them.
. "$TESTROOT/e2e/lib.sh"
"$PMCTRACE" -n 'BEGIN { printf("hello\n"); exit(0); }' >out 2>err; rc=$?
expect_eq "exit status" 0 "$rc"
expect_eq "stderr" "pmctrace: description 'BEGIN ' matched 1 probe" "$(cat err)"
printf 'CPU     ID                    FUNCTION:NAME\n' > want
cpu=$(sed -n '2s/^ *\([0-9]*\) .*/\1/p' out)
# chewrec ends each non-quiet probe record with a newline; dtrace(1)
# prints one more when the run ends.
printf '%3d      1                           :BEGIN hello\n\n\n' "$cpu" >> want
cmp -s want out || { diff want out; fail "stdout without -q"; }
"$PMCTRACE" -qn 'BEGIN { printf("hello\n"); exit(3); }' >out 2>err; rc=$?
expect_eq "exit(3) status" 3 "$rc"
expect_eq "quiet stdout" "hello" "$(cat out)"
expect_eq "quiet stderr" "" "$(cat err)"
exit 0
