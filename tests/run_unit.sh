#!/bin/sh
# Run the CUnit programs given; print one line per program and a summary.
# Usage: run_unit.sh BUILD prog...   Appends "P F" to BUILD/unit-counts.
build=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
# perf.data fixtures: recorded ones in the tree, generated ones in the build
export FIXTURES="$root/tests/fixtures/perfdata" GEN_FIXTURES="$root/$build/fixtures"
pass=0; fail=0
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	line=$(printf '%s\n' "$out" | grep '^unit: ' | tail -1)
	p=$(echo "$line" | awk '{print $2}'); f=$(echo "$line" | awk '{print $4}')
	[ -z "$p" ] && p=0
	[ -z "$f" ] && f=1
	[ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
	if [ "$f" != 0 ]; then
		printf '%s\n' "$out" | tail -40
		echo "FAIL $(basename "$t"): $p passed, $f failed (exit $rc)"
	else
		echo "ok   $(basename "$t"): $p passed"
	fi
	pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass $fail" > "$build/unit-counts"
echo "unit tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
