# Bad input: DTrace's messages and exit codes (1 compile/run, 2 usage).
. "$TESTROOT/e2e/lib.sh"
printf 'BEGIN\n{\n\tx = ;\n}\n' > bad.d
"$PMCTRACE" -s bad.d >out 2>err; rc=$?
expect_eq "syntax error status" 1 "$rc"
expect_grep 'pmctrace: failed to compile script bad.d: line 3: syntax error near ";"' err
"$PMCTRACE" -n 'nosuchprovider:::nosuchprobe { }' >out 2>err; rc=$?
expect_eq "no-match status" 1 "$rc"
expect_grep 'probe description nosuchprovider:::nosuchprobe does not match any probes' err
"$PMCTRACE" -Q >out 2>err; rc=$?
expect_eq "usage status" 2 "$rc"
expect_grep 'Usage: pmctrace' err
"$PMCTRACE" -s /nonexistent/x.d >out 2>err; rc=$?
expect_eq "missing script status" 1 "$rc"
expect_grep 'failed to open /nonexistent/x.d' err
exit 0
