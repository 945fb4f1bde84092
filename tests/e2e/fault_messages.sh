# ASSERTION: inputs that gave unclear messages, a hang or a crash now get
# one clear message and exit status 1:
#  - -x stackframes beyond any stack (it tried to size buffers for 10^11
#    frames and hung) is an invalid option value, as a negative one;
#  - pmc:::COUNTER-PERIOD with a period past 2^63 - 1 is refused when
#    compiling, not after "the kernel rejected its attributes";
#  - inline int a = a + 1 is an undefined identifier (it recursed until
#    SIGSEGV);
#  - as root, a tracepoint the kernel will not give perf does not say "run
#    as root".
. "$TESTROOT/e2e/lib.sh"
P=$PMCTRACE
# msg NAME WANT ARGS...
msg() {
	name=$1 want=$2; shift 2
	timeout 30 "$P" "$@" >out 2>err; rc=$?
	expect_eq "$name: exit status" 1 "$rc"
	expect_eq "$name: message" "$want" "$(cat err)"
}
msg "stackframes" "pmctrace: failed to set -x stackframes: Invalid value for specified option" \
    -x stackframes=99999999999 -qn 'BEGIN { exit(0); }'
msg "ustackframes" "pmctrace: failed to set -x ustackframes: Invalid value for specified option" \
    -x ustackframes=-1 -qn 'BEGIN { exit(0); }'
"$P" -x stackframes=200 -qn 'BEGIN { exit(0); }' >/dev/null 2>err || { cat err; fail "stackframes=200 refused"; }
p='pmc:::cpu-clock-99999999999999999999999 { exit(0); }'
msg "pmc period" "pmctrace: invalid probe specifier $p: pmc:::cpu-clock-99999999999999999999999: the period must be from 1 to 9223372036854775807 events" \
    -qn "$p"
p='inline int a = a + 1; BEGIN { trace(a); exit(0); }'
msg "self-referring inline" "pmctrace: invalid probe specifier $p: failed to resolve a: Unknown variable name" -qn "$p"
if [ "$(id -u)" = 0 ]; then
	# a tracepoint this kernel refuses even to root, if there is one
	for tp in irq_vectors:irq_work_exit irq_vectors:local_timer_entry; do
		"$P" -qn "tracepoint:${tp%%:*}::${tp#*:} { exit(0); } tick-1ms { exit(0); }" >out 2>err && continue
		grep -q "permission denied" err || continue
		grep -q "run as root" err && { cat err; fail "$tp: root is told to run as root"; }
		expect_grep "although running as root" err
	done
fi
exit 0
