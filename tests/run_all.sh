#!/bin/sh
# One full pass (unit + end-to-end) for one build; writes BUILD/test-summary.
# Then, for builds valgrind can run (no sanitizer), tests/valgrind.sh over a
# subset of the end-to-end tests (VALGRIND=0 skips it).
build=$1; shift
sh tests/run_unit.sh "$build" "$@"; u=$?
sh tests/run_e2e.sh "$build"; e=$?
echo "0 0 0" > "$build/valgrind-counts"; : > "$build/valgrind-skips"; v=0
if [ "${VALGRIND:-1}" != 0 ] && ! grep -q __asan_init "$build/pmctrace"; then
	sh tests/valgrind.sh "$build"; v=$?
fi
set -- $(cat "$build/unit-counts") $(cat "$build/e2e-counts") $(cat "$build/valgrind-counts")
p=$(($1 + $3 + $6)); f=$(($2 + $4 + $7))
echo "$p passed, $f failed" > "$build/test-summary"
# The skipped tests by name, with the reason each printed.
why=$(cat "$build/e2e-skips" "$build/valgrind-skips" 2>/dev/null | awk 'NF { printf "%s%s", sep, $0; sep = "; " }')
echo "$build: $p passed, $f failed, $(($5 + $8)) skipped${why:+ ($why)}"
[ $u -eq 0 ] && [ $e -eq 0 ] && [ $v -eq 0 ]
