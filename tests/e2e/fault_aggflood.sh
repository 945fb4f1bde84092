# ASSERTION: a runaway aggregation — millions of distinct keys (profile-4999
# on every CPU, 100 rand() keys per firing, 3 s) into a small aggsize (64k)
# — stays within bounds (resident memory < 64 MB; doubled for a sanitizer
# build), exits 0, and loses nothing silently: every key that did not fit
# is reported as "pmctrace: N aggregation drops on CPU c", so the printed
# counts plus the reported drops equal 100 x the firings.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) is not installed"
limit_kb=65536
grep -q __asan_init "$PMCTRACE" && limit_kb=$((limit_kb * 2))
body=""
for i in $(seq 1 100); do body="$body @k[rand()] = count();"; done
/usr/bin/time -f '%M' -o usage timeout 60 "$PMCTRACE" -q -x aggsize=64k -n "
	profile-4999 { @n = count(); $body }
	tick-3s { exit(0); }
	END { printa(\"firings %@d\n\", @n); printa(\"%d %@d\n\", @k); }" >out 2>err
rc=$?
kb=$(tail -1 usage)
expect_eq "exit status" 0 "$rc"
firings=$(sed -n 's/^firings \([0-9][0-9]*\)$/\1/p' out)
[ -n "$firings" ] && [ "$firings" -gt 1000 ] || { head out; fail "too few firings: '$firings'"; }
grep -v '^pmctrace: [0-9][0-9]* aggregation drops on CPU [0-9][0-9]*$' err > other
expect_eq "nothing else on stderr" "" "$(cat other)"
drops=$(awk '{ s += $2 } END { print s + 0 }' err)
kept=$(awk '$1 != "firings" && NF == 2 { s += $2 } END { print s + 0 }' out)
echo "firings=$firings keys-tried=$((firings * 100)) kept=$kept drops=$drops rss=${kb}KB"
[ "$drops" -gt 1000000 ] || fail "expected millions of drops, got $drops"
expect_eq "kept + dropped = tried" $((firings * 100)) $((kept + drops))
[ "$kb" -le "$limit_kb" ] || fail "used $kb KB resident (limit $limit_kb KB)"
exit 0
