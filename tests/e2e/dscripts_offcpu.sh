# dscripts/offcpu.d: a shell that sleeps 0.3 s at a time shows up as
# "sleep ... blocked" with its time off the CPU in the 2^28 ns bucket.
. "$TESTROOT/e2e/lib.sh"
need_root
sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.3; done' & w=$!
"$PMCTRACE" -s "$TESTROOT/../dscripts/offcpu.d" 2 >out 2>err; rc=$?
kill $w 2>/dev/null; wait $w 2>/dev/null
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
expect_grep '^ *sleep  *blocked *$' out
# In the sleep/blocked histogram: the rows are "value |bars count", the
# 268435456 bucket (268..536 ms) holds the naps.
n=$(awk '/^ *sleep  *blocked *$/ { s = 1; next } s && NF == 0 { s = 0 } s && $1 == 268435456 { print $NF }' out)
[ -n "$n" ] && [ "$n" -ge 3 ] || { cat out; fail "sleep blocked 0.3 s: bucket 268435456 has '$n', want >= 3"; }
expect_grep 'value  *-* Distribution -* count' out
exit 0
