# ASSERTION: every user-facing error path gives dtrace(1)'s message (first
# stderr line, exactly) and exit status (1 errors, 2 usage), and prints
# nothing on stdout.  One table row per path; the count is printed.
. "$TESTROOT/e2e/lib.sh"
n=0; bad=0
# row RC 'expected first stderr line' pmctrace-args...   (PREFIX=1: line starts so)
row() {
	want_rc=$1; want=$2; shift 2
	n=$((n + 1))
	timeout 30 "$PMCTRACE" "$@" >out 2>err; rc=$?
	got=$(head -1 err)
	[ -n "$PREFIX" ] && got=$(printf '%s' "$got" | cut -c1-${#want})
	if [ "$rc" != "$want_rc" ] || [ "$got" != "$want" ] || [ -s out ]; then
		bad=$((bad + 1))
		printf 'FAIL row %d: pmctrace %s\n  want %s: %s\n  got  %s: %s\n' "$n" "$*" "$want_rc" "$want" "$rc" "$got"
		[ -s out ] && echo "  stdout: $(head -3 out)"
	fi
}
P=pmctrace
# options
row 2 "$P: illegal option -- Q" -Q
row 2 "$P: option requires an argument -- 'x'" -x
row 1 "$P: failed to set -x nosuchopt: Invalid option name" -x nosuchopt=1 -n 'BEGIN { exit(0); }'
row 1 "$P: failed to set -x bufsize: Invalid value for specified option" -x bufsize=abc -n 'BEGIN { exit(0); }'
row 1 "$P: failed to set -x aggsize: Invalid value for specified option" -x aggsize=-5 -n 'BEGIN { exit(0); }'
# probe descriptions
row 1 "$P: invalid probe specifier a:b:c:d:e { }: invalid probe description \"a:b:c:d:e\": Overspecified probe description" -n 'a:b:c:d:e { }'
row 1 "$P: invalid probe specifier nosuch:::probe { }: probe description nosuch:::probe does not match any probes" -n 'nosuch:::probe { }'
row 1 "$P: invalid probe specifier profile-0 { }: probe description :::profile-0 does not match any probes" -n 'profile-0 { }'
# counters
# (the model named in the message is the machine's, so only up to it)
PREFIX=1 row 1 "$P: invalid probe specifier pmc:::nosuchcounter-1000 { }: unknown counter \"nosuchcounter\" (not a friendly alias, a perf generic name, a libpfm4 event of " -n 'pmc:::nosuchcounter-1000 { }'
PREFIX=
# types, functions, formats
row 1 "$P: invalid probe specifier BEGIN { nosuchtype_t x; }: syntax error near \"x\"" -n 'BEGIN { nosuchtype_t x; }'
row 1 "$P: invalid probe specifier BEGIN { x = strlen(); }: strlen( ) prototype mismatch: 0 args passed, 1 expected" -n 'BEGIN { x = strlen(); }'
row 1 "$P: invalid probe specifier BEGIN { x = strlen(\"a\", \"b\"); }: strlen( ) prototype mismatch: 2 args passed, 1 expected" -n 'BEGIN { x = strlen("a", "b"); }'
row 1 "$P: invalid probe specifier BEGIN { printf(\"%Q\", 1); }: format conversion #1 is undefined: %Q" -n 'BEGIN { printf("%Q", 1); }'
row 1 "$P: invalid probe specifier BEGIN { printf(\"%d\"); }: printf( ) prototype mismatch: conversion #1 (%d) is missing a corresponding value argument" -n 'BEGIN { printf("%d"); }'
# script files
row 1 "$P: failed to open /nonexistent/x.d: No such file or directory" -s /nonexistent/x.d
# perf.data replay (-E FILE replays an existing file)
printf 'this is not a perf.data file, only some text\n' > text.data
row 1 "$P: failed to open text.data: perf.data: bad magic at offset 0: not a perf.data file" -q -E text.data -n 'profile-97 { @ = count(); }'
printf 'PERFILE2' > short.data
row 1 "$P: failed to open short.data: perf.data: only 8 bytes: not a perf.data file" -q -E short.data -n 'profile-97 { @ = count(); }'
# too many counters: only where a hardware PMU is exposed
if ls /sys/bus/event_source/devices/ | grep -Eq '^(cpu|cpu_core|armv[0-9].*)$'; then
	many=""
	for c in cycles instructions branches branch-misses cache-references cache-misses bus-cycles ref-cycles \
	    cycles instructions branches branch-misses; do many="$many${many:+,}pmc:::$c-100003"; done
	n=$((n + 1))
	"$PMCTRACE" -n "$many { }" >out 2>err; rc=$?
	grep -Eq "^$P: invalid probe specifier .*: [0-9]+ hardware counters requested \(.*\); remove [0-9]+ or use -x pmcmultiplex$" err &&
	    [ $rc = 1 ] || { bad=$((bad + 1)); echo "FAIL too many counters: exit $rc: $(cat err)"; }
else
	echo "(no hardware PMU here: the too-many-counters row is not run)"
fi
echo "$n bad-input cases, $bad failed"
[ $bad = 0 ] || fail "$bad of $n bad-input cases"
exit 0
