#!/bin/sh
# One full pass (unit + end-to-end) for one build; writes BUILD/test-summary.
build=$1; shift
sh tests/run_unit.sh "$build" "$@"; u=$?
sh tests/run_e2e.sh "$build"; e=$?
set -- $(cat "$build/unit-counts") $(cat "$build/e2e-counts")
p=$(($1 + $3)); f=$(($2 + $4))
echo "$p passed, $f failed" > "$build/test-summary"
echo "$build: $p passed, $f failed, $5 skipped"
[ $u -eq 0 ] && [ $e -eq 0 ]
