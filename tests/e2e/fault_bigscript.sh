# ASSERTION: an enormous script (100,000 clauses, generated, 6 MB) either
# compiles (-e: compile only) or fails with a "failed to compile script"
# message and exit status 1 — within bounded time (60 s) and memory
# (256 MB resident; doubled for a sanitizer build), never "out of memory",
# never a crash.
. "$TESTROOT/e2e/lib.sh"
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) is not installed"
limit_kb=262144; limit_s=60
if grep -q __asan_init "$PMCTRACE"; then limit_kb=$((limit_kb * 2)); limit_s=$((limit_s * 3)); fi
awk 'BEGIN {
	print "BEGIN { i = 0; }";
	for (n = 0; n < 100000; n++)
		printf "tick-1s /i == %d/ { @a[%d] = count(); i++; }\n", n, n;
}' > big.d
/usr/bin/time -f '%e %M' -o usage timeout $((limit_s + 30)) "$PMCTRACE" -e -s big.d >out 2>err
rc=$?
read -r secs kb <<EOT
$(tail -1 usage)
EOT
echo "exit $rc, $secs s, $kb KB max resident"
case $rc in
0) grep -q "^pmctrace: script 'big.d' matched 100001 probes$" err || { cat err; fail "compiled without the matched line"; } ;;
1) expect_eq "one message" 1 "$(wc -l < err)"
   grep -q '^pmctrace: failed to compile script big.d: ' err || { cat err; fail "unclear failure"; }
   grep -qi 'out of memory' err && fail "ran out of memory: $(cat err)" ;;
*) cat err; fail "exit status $rc" ;;
esac
awk -v s="$secs" -v l="$limit_s" 'BEGIN { exit !(s <= l) }' || fail "took $secs s (limit $limit_s s)"
[ "$kb" -le "$limit_kb" ] || fail "used $kb KB resident (limit $limit_kb KB)"
exit 0
