#!/bin/sh
# ASSERTION: when aggsize is exhausted, new keys are dropped (existing ones
# still count), nothing crashes, and the drops are reported in DTrace's
# words: "pmctrace: N aggregation drops on CPU c"; rows + drops = keys.
out=$(mktemp) err=$(mktemp); trap 'rm -f "$out" "$err"' EXIT
"$PMCTRACE" -q -x aggsize=1k -n 'BEGIN { i = 0; }
	tick-1ms /i < 200/ { @[i++] = count(); }
	tick-1ms /i == 200/ { exit(0); }' >"$out" 2>"$err"
rc=$?
[ $rc -eq 0 ] || { echo "exit $rc"; cat "$err"; exit 1; }
drops=$(sed -n 's/^pmctrace: \([0-9][0-9]*\) aggregation drops on CPU [0-9][0-9]*$/\1/p' "$err" |
	awk '{s += $1} END {print s + 0}')
rows=$(grep -c '^ *[0-9][0-9]* *1$' "$out")
echo "rows=$rows drops=$drops"
[ "$drops" -gt 0 ] || { echo "no drop report"; cat "$err"; exit 1; }
[ $((rows + drops)) -eq 200 ] || { echo "rows + drops != 200"; exit 1; }
exit 0
