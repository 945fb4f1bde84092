# -l, -lv, -e and -V as dtrace(1) has them.
. "$TESTROOT/e2e/lib.sh"
"$PMCTRACE" -l -n 'dtrace:::BEGIN' >out 2>err; rc=$?
expect_eq "-l status" 0 "$rc"
printf '   ID   PROVIDER            MODULE                          FUNCTION NAME\n    1     dtrace                                                     BEGIN\n' > want
cmp -s want out || { diff want out; fail "-l -n dtrace:::BEGIN"; }
"$PMCTRACE" -l -P profile >out 2>err
expect_grep '^ *[0-9]*    profile  *profile-997$' out
expect_grep '^ *[0-9]*    profile  *tick-1s$' out
# -l -P pmc lists the counters this machine can sample
"$PMCTRACE" -l -P pmc >out 2>err
expect_grep '^ *[0-9]*        pmc  *page-faults$' out
expect_grep '^ *[0-9]*        pmc  *sample-src$' out
if [ "$("$PMCTRACE" --hw 2>/dev/null | sed -n 's/^  available: //p' | head -1)" = no ]; then
	! grep -q ' instructionretired$' out || fail "-l -P pmc lists a hardware counter on a machine without a PMU"
fi
"$PMCTRACE" -l >out 2>err
for p in dtrace profile pmc sched isr dpc; do
	grep -q "^ *[0-9]* *$p " out || fail "-l lists no $p probe"
done
"$PMCTRACE" -lv -n 'isr:::isr' >out 2>err
expect_grep 'args\[1\]: string' out
expect_grep 'Argument Types' out
"$PMCTRACE" -e -n 'BEGIN { printf("must not run\n"); }' >out 2>err; rc=$?
expect_eq "-e status" 0 "$rc"
expect_eq "-e stdout" "" "$(cat out)"
"$PMCTRACE" -V >out 2>err; rc=$?
expect_eq "-V status" 0 "$rc"
expect_grep '^pmctrace: Sun D ' out
# the message prefix is the program's own name
ln -s "$PMCTRACE" ./dtrace
./dtrace -n 'nosuch:::probe' >out 2>err
expect_grep '^dtrace: ' err
exit 0
