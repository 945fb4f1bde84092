#!/bin/sh
# Valgrind pass over a documented subset of the end-to-end tests: the
# pmctrace they run is valgrind --leak-check=full around BUILD/pmctrace.
# Any invalid access, use of uninitialised memory, definite or indirect
# leak, or unclosed file descriptor inherited nowhere fails the test that
# ran it (the valgrind log is printed).
#
# Subset (chosen to stay under ~3 minutes on 2 CPUs and to cover every
# module's run-time paths, not just the compiler):
#   tests/d/tst.*.d                   — the D engine end to end (aggregations,
#                                       printf, speculation, ...)
#   tests/d/err.*.d, every 4th by name — compile-error paths (a sample: each
#                                       run pays valgrind's ~2 s start-up)
#   cli_errors, cli_hello, cli_script — option and script handling
#   fault_signals, fault_target         — live perf events, signals, -c
#   fault_nopid                        — error path before tracing
#   dscripts_replay                    — perf.data replay (sampler, symbolizer)
#   agg_drops                          — aggregation drops
#   kbpf (inline)                      — the in-kernel probe: load, attach,
#                                       sched/isr/dpc records, stacks, a
#                                       counter read at each switch
# Left out: cli_sigint (sends SIGINT after a fixed sleep, which valgrind
# startup can outlast), tests that copy the binary (cli_unprivileged), that measure
# time/RSS (fault_bigscript, fault_aggflood) or need the native speed
# (sampler_storm, profile rate checks).
# About 2.5 minutes on 2 idle CPUs (4 when busy).  tests/run_all.sh runs it in
# `make test-plain` (not for sanitizer builds: valgrind cannot run them);
# VALGRIND=0 skips it.
# Usage: tests/valgrind.sh BUILD   writes "P F S" to BUILD/valgrind-counts,
# "NAME: reason" per skip to BUILD/valgrind-skips.
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
skips="$root/$build/valgrind-skips"; : > "$skips"
command -v valgrind >/dev/null || { echo "valgrind: not installed, skipped"; echo "valgrind pass: valgrind is not installed" > "$skips"
	echo "0 0 1" > "$root/$build/valgrind-counts"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vglog"
cat > "$tmp/pmctrace" <<EOS
#!/bin/sh
exec valgrind -q --suppressions="$root/tests/valgrind-libbpf.supp" --error-exitcode=97 --leak-check=full --show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect --track-fds=no --child-silent-after-fork=yes \
	--log-file="$tmp/vglog/vg.%p" "$root/$build/pmctrace" "\$@"
EOS
chmod 755 "$tmp/pmctrace"
export PMCTRACE="$tmp/pmctrace" HELPERS="$root/$build/helpers" FIXTURES="$root/tests/fixtures/perfdata" \
	GEN_FIXTURES="$root/$build/fixtures" TESTROOT="$root/tests"
pass=0; fail=0; skip=0
# verdict NAME RC: a valgrind report anywhere fails the test.
verdict() {
	logs=$(find "$tmp/vglog" -type f -size +0 2>/dev/null)
	if [ -n "$logs" ]; then
		fail=$((fail+1)); echo "FAIL valgrind $1"; cat $logs | head -60
	elif [ "$2" = 0 ]; then
		pass=$((pass+1)); echo "ok   valgrind $1"
	elif [ "$2" = 77 ]; then
		skip=$((skip+1)); echo "skip valgrind $1: $(tail -1 "$tmp/log")"
		echo "valgrind $1: $(tail -1 "$tmp/log")" >> "$skips"
	else
		fail=$((fail+1)); echo "FAIL valgrind $1 (exit $2)"; sed 's/^/     /' "$tmp/log" | tail -20
	fi
	rm -f "$tmp"/vglog/*
}
i=0
for f in "$root"/tests/d/tst.*.d "$root"/tests/d/err.*.d; do
	[ -e "$f" ] || continue
	case $f in */err.*) i=$((i + 1)); [ $((i % 4)) = 1 ] || continue ;; esac
	n=$(basename "$f"); args=$(sed -n '1s|^/\* args: \(.*\) \*/$|\1|p' "$f")
	case $n in
	tst.*) (cd "$(dirname "$f")" && timeout 120 "$PMCTRACE" $args -s "$n" >"$tmp/log" 2>&1); rc=$? ;;
	err.*) (cd "$(dirname "$f")" && timeout 120 "$PMCTRACE" -s "$n" >"$tmp/log" 2>&1)
	       rc=$?; [ $rc = 1 ] && rc=0 ;;
	esac
	verdict "$n" $rc
done
for n in cli_errors cli_hello cli_script fault_signals fault_target fault_nopid dscripts_replay agg_drops; do
	f="$root/tests/e2e/$n.sh"
	[ -e "$f" ] || continue
	(cd "$tmp" && timeout 300 sh "$f" >"$tmp/log" 2>&1); rc=$?
	verdict "$n.sh" $rc
done
# The in-kernel probe (tests/valgrind-libbpf.supp: libbpf's load only).
if [ "$(id -u)" = 0 ]; then
	(cd "$tmp" && timeout 120 "$PMCTRACE" -qn 'sched::pmc:off-cpu-task-clock { @c[probename] = sum(arg5); }
	sched:::off-cpu, sched:::wakeup, isr:::isr, dpc:::dpc { @[probename, stack(2), ustack(2)] = count(); }
	tick-1s { exit(0); }' >"$tmp/log" 2>&1); rc=$?
	grep -q off-cpu "$tmp/log" || rc=1
else
	echo "needs root" > "$tmp/log"; rc=77
fi
verdict kbpf $rc
echo "$pass $fail $skip" > "$root/$build/valgrind-counts"
echo "valgrind tests: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
