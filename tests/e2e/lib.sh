# Shared helpers for end-to-end tests (sourced).  PMCTRACE, HELPERS, FIXTURES
# come from tests/run_e2e.sh.
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() { [ "$2" = "$3" ] || { printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"; exit 1; }; }
expect_grep() { grep -q -- "$1" "$2" || { echo "FAIL: '$1' not in $2:"; cat "$2"; exit 1; }; }
# wait_ready FILE [PATTERN]: until a background pmctrace's BEGIN { printf("ready\n"); }
# shows in FILE (probes are enabled before BEGIN fires), at most 60 s (a
# loaded machine starts slowly; longer is a hang).  PATTERN, default
# '^ready$', for output that is not quiet (':BEGIN ready$').
wait_ready() {
	i=0
	until grep -q "${2:-^ready\$}" "$1" 2>/dev/null; do
		i=$((i+1)); [ $i -gt 600 ] && fail "pmctrace never got ready"; sleep 0.1
	done
}
# wait_mapped PID PATTERN: until /proc/PID/maps has a line matching PATTERN
# (the program has exec'd, a library is loaded), at most 60 s.
wait_mapped() {
	i=0
	until grep -q -- "$2" /proc/$1/maps 2>/dev/null; do
		i=$((i+1)); [ $i -gt 600 ] && fail "process $1 never mapped $2"; sleep 0.1
	done
}
# wait_asleep PID NAME: until PID runs NAME (its maps name it) and sleeps
# (state S): past the dynamic loader, whose descriptors come and go.
wait_asleep() {
	i=0
	until grep -q -- "/$2\$" /proc/$1/maps 2>/dev/null && [ "$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null)" = S ]; do
		i=$((i+1)); [ $i -gt 600 ] && fail "process $1 never slept in $2"; sleep 0.1
	done
}
# gone NAME: whether no process named NAME is left, within 10 s (a killed
# process takes a moment to be reaped on a loaded machine).
gone() {
	i=0
	while pgrep -x "$1" >/dev/null; do
		i=$((i+1)); [ $i -gt 100 ] && return 1; sleep 0.1
	done
}
# kernel_saw_switch_in COMM: whether perf record sees any sched_switch into
# COMM while "$@"-style workload runs for 2 s.  On some VMs the kernel now
# and then delivers no switch-in or wakeup records for a sleeper to any
# tracer (perf included); tests use this to tell that from a pmctrace bug.
kernel_saw_switch_in() {
	comm=$1; shift
	command -v perf >/dev/null || return 0
	"$@" & kw=$!
	perf record -q -e sched:sched_switch -a -o ks.data -- sleep 2 >/dev/null 2>&1
	kill $kw 2>/dev/null; wait $kw 2>/dev/null
	n=$(perf script -i ks.data 2>/dev/null | grep -c "next_comm=$comm")
	rm -f ks.data
	[ "$n" -gt 0 ]
}
# busy_cpus SECONDS: one spinner per online CPU, in the background (their
# pids in $busy_pids; stop_busy ends them).  This kernel's perf path does
# not deliver tracepoint events that fire while a CPU is idle (an
# interrupt taken in the idle loop: bpftrace sees 400 disk interrupts
# where perf record sees 0-6).  sched, isr and dpc use the in-kernel
# probe, which sees them; tests of what still comes from perf
# tracepoints (io:::done) keep the CPUs busy for the events to land in
# a task.
busy_cpus() {
	busy_pids=
	for _c in $(seq 1 "$(nproc)"); do
		"$HELPERS/pmct_spin" "$1" >/dev/null 2>&1 &
		busy_pids="$busy_pids $!"
	done
}
stop_busy() { kill $busy_pids 2>/dev/null; wait $busy_pids 2>/dev/null; busy_pids=; }
