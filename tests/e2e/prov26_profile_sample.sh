# profile:::sample-N, the seeds' name, is profile-N: -l lists it as
# profile-N, a clause naming both fires once per sample (as many times as
# profile-N alone), probename is profile-N; a recording replays it.
. "$TESTROOT/e2e/lib.sh"
need_root
"$PMCTRACE" -lv -n profile:::sample-997 >list 2>&1 || { cat list; fail "sample-997 not listed"; }
grep -Eq ' profile +profile-997$' list && grep -q 'args\[1\]: uint64_t' list || { cat list; fail "sample-997 is not profile-997"; }
prog='profile:::sample-997, profile:::profile-997 /pid == $target/ { @a = count(); }
profile:::profile-997 /pid == $target/ { @b = count(); }
profile:::sample-997 /pid == $target/ { @c[probename] = count(); }
END { printa("%@d ", @a); printa("%@d ", @b); printa("%s %@d\n", @c); }'
"$PMCTRACE" -E s.data -qn "$prog" -c "$HELPERS/pmct_spin 0.5" >out 2>err || { cat err; fail "status $?"; }
n=$(grep -v '^$' out | cut -d' ' -f1)
[ -n "$n" ] && [ "$n" -gt 0 ] || { cat out err; fail "no samples of the spinning workload"; }
expect_eq "sample-997 and profile-997" "$n $n profile-997 $n" "$(grep -v '^$' out)"
pid=$(sed -n 's/^pmctrace: pid \([0-9]*\) .*/\1/p' err)
[ -n "$pid" ] || { cat err; fail "no pid of the workload"; }
"$PMCTRACE" -E s.data -qn "$(printf '%s\n' "$prog" | sed "s/\\\$target/$pid/g")" >rout 2>rerr || { cat rerr; fail "replay: status $?"; }
expect_eq "sample-997 replayed" "$(grep -v '^$' out)" "$(grep -v '^$' rout)"
