# ASSERTION: output that cannot be written is an error, as in DTrace: stdout
# or -o on a full device, or a pipe whose reader has gone, gives one
# message naming the output and the system's reason, and exit status 1
# (a closed pipe also ends a run that would otherwise go on forever).
. "$TESTROOT/e2e/lib.sh"
[ -w /dev/full ] || skip "no /dev/full"
prog='BEGIN { printf("hello\n"); exit(0); }'
"$PMCTRACE" -qn "$prog" >/dev/full 2>err; rc=$?
expect_eq "stdout full: exit" 1 "$rc"
expect_eq "stdout full: message" "pmctrace: failed to write to standard output: No space left on device" "$(cat err)"
"$PMCTRACE" -qn "$prog" -o /dev/full 2>err; rc=$?
expect_eq "-o full: exit" 1 "$rc"
expect_eq "-o full: message" "pmctrace: failed to write to /dev/full: No space left on device" "$(cat err)"
"$PMCTRACE" -V >/dev/full 2>err; rc=$?
expect_eq "-V full: exit" 1 "$rc"
expect_eq "-V full: message" "pmctrace: failed to write to standard output: No space left on device" "$(cat err)"
# aggregations printed at END
"$PMCTRACE" -qn 'BEGIN { @a[1] = count(); exit(0); }' >/dev/full 2>err; rc=$?
expect_eq "END full: exit" 1 "$rc"
# a reader that goes away ends an endless run
( timeout 60 "$PMCTRACE" -qn 'tick-10ms { printf("%d\n", timestamp); }' 2>err; echo $? > rc ) | head -1 > out
expect_eq "closed pipe: exit" 1 "$(cat rc)"
expect_eq "closed pipe: message" "pmctrace: failed to write to standard output: Broken pipe" "$(cat err)"
expect_eq "closed pipe: the line read" 1 "$(wc -l < out)"
# what works still works: -o appends, as DTrace
"$PMCTRACE" -qn "$prog" -o o.txt && "$PMCTRACE" -qn "$prog" -o o.txt || fail "-o file"
expect_eq "-o appends" 2 "$(grep -c '^hello$' o.txt)"
exit 0
