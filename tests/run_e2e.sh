#!/bin/sh
# End-to-end tests of the real binary.
#  tests/d/tst.NAME.d        must exit 0; stdout must equal tst.NAME.d.out if present
#                            (and stderr tst.NAME.d.err if present).  A first-line
#                            comment "/* args: ... */" passes extra options.
#  tests/d/err.D_TAG.NAME.d  must fail (exit 1) and print [D_TAG] with -x errtags
#  tests/e2e/*.sh            exit 0 pass, 77 skip (with a printed reason), else fail
# E2E="NAME ..." runs only those tests/e2e/NAME.sh (e.g. make e2e E2E=cli_hello).
# Writes "P F S" to BUILD/e2e-counts and "NAME: reason" per skip to BUILD/e2e-skips.
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
export PMCTRACE="$root/$build/pmctrace" HELPERS="$root/$build/helpers" FIXTURES="$root/tests/fixtures/perfdata" \
	GEN_FIXTURES="$root/$build/fixtures" TESTROOT="$root/tests"
pass=0; fail=0; skip=0
: > "$root/$build/e2e-skips"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok()   { pass=$((pass+1)); echo "ok   $1"; }
# A failing test's output: its head, and its tail, where the verdict is.
bad()  {
	fail=$((fail+1)); echo "FAIL $1"
	[ -n "$2" ] || return 0
	if [ "$(wc -l < "$2")" -le 40 ]; then sed 's/^/     /' "$2"
	else sed -n '1,25s/^/     /p' "$2"; echo "     ..."; tail -n 12 "$2" | sed 's/^/     /'; fi
}
run_d() {
	f=$1; args=$(sed -n '1s|^/\* args: \(.*\) \*/$|\1|p' "$f")
	(cd "$(dirname "$f")" && timeout 60 "$PMCTRACE" $args -s "$(basename "$f")" >"$tmp/out" 2>"$tmp/err"); echo $?
}
for f in "$root"/tests/d/tst.*.d; do
	[ -e "$f" ] && [ -z "$E2E" ] || continue
	n=$(basename "$f")
	rc=$(run_d "$f")
	if [ "$rc" != 0 ]; then cat "$tmp/err" >> "$tmp/out"; bad "$n (exit $rc)" "$tmp/out"; continue; fi
	if [ -f "$f.out" ] && ! diff -u "$f.out" "$tmp/out" > "$tmp/diff"; then bad "$n (stdout)" "$tmp/diff"; continue; fi
	if [ -f "$f.err" ] && ! diff -u "$f.err" "$tmp/err" > "$tmp/diff"; then bad "$n (stderr)" "$tmp/diff"; continue; fi
	ok "$n"
done
for f in "$root"/tests/d/err.*.d; do
	[ -e "$f" ] && [ -z "$E2E" ] || continue
	n=$(basename "$f"); tag=$(echo "$n" | cut -d. -f2)
	(cd "$(dirname "$f")" && timeout 60 "$PMCTRACE" -x errtags -s "$n" >"$tmp/out" 2>"$tmp/err"); rc=$?
	if [ "$rc" = 1 ] && grep -q "\[$tag\]" "$tmp/err"; then ok "$n"; else cat "$tmp/err" >> "$tmp/out"; bad "$n (exit $rc, want 1 and [$tag])" "$tmp/out"; fi
done
for f in "$root"/tests/e2e/*.sh; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	case $n in lib*.sh) continue ;; esac	# sourced helpers, not tests
	case " ${E2E:-${n%.sh}} " in *" ${n%.sh} "*) ;; *) continue ;; esac
	mkdir -p "$tmp/$n"	# each test its own working directory
	t0=$(date +%s)
	(cd "$tmp/$n" && timeout 300 sh "$f" >"$tmp/log" 2>&1); rc=$?
	secs=$(( $(date +%s) - t0 ))
	case $rc in
	0) ok "$n (${secs}s)" ;;
	77) skip=$((skip+1)); echo "skip $n: $(tail -1 "$tmp/log")"
	    echo "$n: $(tail -1 "$tmp/log")" >> "$root/$build/e2e-skips" ;;
	*) bad "$n (exit $rc)" "$tmp/log" ;;
	esac
done
echo "$pass $fail $skip" > "$root/$build/e2e-counts"
echo "end-to-end tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
