#!/bin/bash
# run.sh — the bench harness (make -C bench runs it; see README.md).
#
# 1. tracers: each workload bare and under each tracer, interleaved (every
#    repetition visits every workload x tracer cell, in a rotated order) and
#    repeated; medians of wall time, the tracer's own CPU time, the events it
#    saw and the losses it reported.
# 2. startup: time to the first "hi" line of a BEGIN-only script.
# 3. subs: every bench/<x>/Makefile's `run` target; its RESULT lines are
#    copied into the summary.
# Nothing is invented: a tool that cannot run, or fails, shows as
# "n/a (<tool>: <its error>)".
set -u

BENCH=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$BENCH")
BIN=$BENCH/bin
PMCTRACE=${PMCTRACE:-$TOP/pmctrace}
PMCTRACE_BUILD=${PMCTRACE_BUILD:-$TOP/build}
# Sub-benchmarks run in their own folders: hand them absolute paths.
case $PMCTRACE in
/*) ;;
*) [ -e "$PMCTRACE" ] && PMCTRACE=$(cd "$(dirname "$PMCTRACE")" && pwd)/$(basename "$PMCTRACE") ;;
esac
QUICK=${BENCH_QUICK:-0}
[ "$QUICK" = 1 ] || QUICK=0
REPS=${BENCH_REPS:-$([ "$QUICK" = 1 ] && echo 3 || echo 5)}
ONLY=${BENCH_ONLY:-tracers startup subs}
MAKE=${MAKE:-make}
# Seconds a tracer gets to exit after SIGINT (then SIGTERM, as long again,
# then SIGKILL).  bpftrace symbolizing the stacks of many processes on a
# busy machine can need minutes; such a run keeps its timing, loses its output.
STOP_T=${BENCH_STOP_TIMEOUT:-20}
T0=$(date +%s)
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RES=$BENCH/results/$STAMP
TMPD=$(mktemp -d /tmp/pmctrace-bench.XXXXXX)
CHILD=
mkdir -p "$RES/trials"

# ---------------------------------------------------------------- workloads
# Sizes give about 1-1.5 s each bare on the 2-core VM the figures come from
# (syscalls is shorter: perf trace slows it about 20x).
WORKLOADS=(cpu_tree ctxsw pagefault syscalls)
declare -A WL_ARGS
if [ "$QUICK" = 1 ]; then
	WL_ARGS=([cpu_tree]=20 [ctxsw]=120000 [pagefault]=150000 [syscalls]=100000)
else
	WL_ARGS=([cpu_tree]=60 [ctxsw]=400000 [pagefault]=500000 [syscalls]=400000)
fi
[ -n "${BENCH_WORKLOADS:-}" ] && WORKLOADS=($BENCH_WORKLOADS)

# ---------------------------------------------------------------- tracers
# Tracer sets: profiling and scheduler tracing run on the first three
# workloads; syscall tracing (issue 13) on the syscall storm only.
# ORDER: these lists and tracer_argv's cases.
SET_PROF="perf-prof bpftrace-prof pmctrace-prof"
SET_SCHED="perf-sched bpftrace-sched pmctrace-sched pmctrace-schedperf"
SET_SYS="perf-sys bpftrace-sys pmctrace-sys"

# The tracers run on workload $1, bare first, filtered by BENCH_TRACERS.
cells_of() {
	local all t
	case $1 in
	syscalls) all="bare $SET_SYS" ;;
	*) all="bare $SET_PROF $SET_SCHED" ;;
	esac
	for t in $all; do
		case " bare ${BENCH_TRACERS:-$t} " in *" $t "*) echo "$t" ;; esac
	done
}

# Sets TR to the argv of tracer $1.
tracer_argv() {
	case $1 in
	perf-prof)      TR=(perf record -F 999 -g -a -o "$TMPD/perf.data") ;;
	bpftrace-prof)  TR=(bpftrace -e 'profile:hz:999 { @[kstack, ustack] = count(); }') ;;
	pmctrace-prof)  TR=("$PMCTRACE" -qn 'profile-999 { @[stack(), ustack()] = count(); }') ;;
	perf-sched)     TR=(perf record -e sched:sched_switch -a -o "$TMPD/perf.data") ;;
	bpftrace-sched) TR=(bpftrace -e 'tracepoint:sched:sched_switch { @[args->prev_comm] = count(); }') ;;
	pmctrace-sched) TR=("$PMCTRACE" -qn 'sched:::off-cpu { @[execname] = count(); }') ;;
	pmctrace-schedperf) TR=("$PMCTRACE" -x nobpf -qn 'sched:::off-cpu { @[execname] = count(); }') ;;
	perf-sys)       TR=(perf trace -s -a -o "$TMPD/trace.txt") ;;
	bpftrace-sys)   TR=(bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }') ;;
	pmctrace-sys)   TR=("$PMCTRACE" -qn 'syscall:::entry { @[execname] = count(); }') ;;
	*)              TR=() ;;
	esac
}

tool_of() { echo "${1%%-*}"; }

declare -A SKIP     # tool -> reason it cannot run at all
declare -A FAILED   # workload.tracer -> reason

cleanup() {
	if [ -n "$CHILD" ]; then
		kill -INT "$CHILD" 2>/dev/null
		wait "$CHILD" 2>/dev/null
	fi
	rm -rf "$TMPD"
}
trap 'cleanup; echo "bench: interrupted" >&2; exit 130' INT TERM
trap 'rm -rf "$TMPD"' EXIT

# Run benchrun in the background so a signal reaches our trap at once;
# benchrun forwards it and reaps its children.  Output goes to file $1.
run_benchrun() {
	local out=$1
	shift
	"$BIN/benchrun" "$@" >"$out" &
	CHILD=$!
	wait "$CHILD"
	CHILD=
}

# Value of key $1 in the key=value line $2.
kv() {
	local k=$1 pair
	for pair in $2; do
		case $pair in "$k"=*) echo "${pair#*=}"; return ;; esac
	done
}

# First line of file $1 that explains a failure: skip known harmless noise.
first_error() {
	grep -v -e '^[[:space:]]*$' -e 'RLIMIT_MEMLOCK' -e 'drops\? on CPU' \
		-e '^Attaching' -e '^\[ perf record' "$1" 2>/dev/null | head -1 | cut -c1-160
}

# ---------------------------------------------------------------- preflight
preflight() {
	if [ "$(id -u)" != 0 ]; then
		for t in perf bpftrace pmctrace; do SKIP[$t]="needs root (system-wide tracing)"; done
		return
	fi
	# Missing peers are installed from Debian's packages when we can.
	command -v perf >/dev/null && command -v bpftrace >/dev/null ||
		sh "$TOP/tests/deps.sh" linux-perf bpftrace
	if [ -z "$(ls -A /sys/kernel/tracing 2>/dev/null)" ]; then
		mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null ||
			echo "bench: could not mount tracefs at /sys/kernel/tracing" >&2
	fi
	if ! command -v perf >/dev/null; then
		SKIP[perf]="perf not installed (apt-get install linux-perf)"
	elif ! perf record -q -e cpu-clock -a -o "$TMPD/pre.data" -- true >"$TMPD/pre.log" 2>&1; then
		SKIP[perf]="perf record fails: $(first_error "$TMPD/pre.log")"
	fi
	if ! command -v bpftrace >/dev/null; then
		SKIP[bpftrace]="bpftrace not installed (apt-get install bpftrace)"
	elif ! bpftrace -e 'BEGIN { exit(); }' >"$TMPD/pre.log" 2>&1; then
		SKIP[bpftrace]="bpftrace fails: $(first_error "$TMPD/pre.log")"
	fi
	[ -x "$PMCTRACE" ] || SKIP[pmctrace]="no binary at $PMCTRACE (make pmctrace)"
	rm -f "$TMPD/pre.data" "$TMPD/pre.log"
}

# ---------------------------------------------------------------- trials
# Sum of the last field of each line whose last field is a plain integer:
# the counts of a bpftrace map dump and of a DTrace-style printa alike.
counted_events() {
	awk '$NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' "$1" 2>/dev/null
}

# Losses a tool reported for one trial, as "N" plus an optional note.
tool_losses() {
	local tool=$1 base=$2 lost
	case $tool in
	perf)
		if [ -f "$TMPD/trace.txt" ]; then	# perf trace: "LOST N events!"
			awk '$1 == "LOST" { s += $2 } END { print s + 0 }' "$TMPD/trace.txt"
			return
		fi
		lost=$(kv lost "$("$BIN/benchrun" -L "$TMPD/perf.data")")
		echo "${lost:-?}"
		;;
	bpftrace)
		lost=$(cat "$base.out" "$base.err" | awk '/Lost [0-9]+ events/ {
			for (i = 1; i < NF; i++) if ($i == "Lost") s += $(i + 1) } END { print s + 0 }')
		echo "$lost $(grep -c 'failed to look up stack id' "$base.err")"
		;;
	pmctrace)
		# DTrace's words: "N drops on CPU C", "N aggregation drops on CPU C",
		# "N dynamic variable drops", ...: every kind counts as lost data.
		# The prefix is the program's name, whatever the binary is called.
		lost=$(awk '/^[^ ]+: [0-9]+ .*drops?( |$)/ { s += $2 } END { print s + 0 }' "$base.err")
		echo "$lost"
		;;
	esac
}

# Events the tool saw: perf's sample records, or the sum of counts printed.
tool_events() {
	case $1 in
	perf)
		if [ -f "$TMPD/trace.txt" ]; then	# perf trace -s: sum of "calls"
			awk 'NF == 8 && $2 ~ /^[0-9]+$/ && $NF ~ /%$/ { s += $2 } END { print s + 0 }' \
				"$TMPD/trace.txt"
		else
			kv samples "$("$BIN/benchrun" -L "$TMPD/perf.data")"
		fi
		;;
	*) counted_events "$2.out" ;;
	esac
}

# benchrun's note word as a phrase for the table.
note_text() {
	case $1 in
	tracer-not-ready) echo "not ready after 20 s (no perf_event/bpf fd, or never settled)" ;;
	tracer-exited-early) echo "exited before it was ready" ;;
	tracer-exited-during-run) echo "exited while the workload ran" ;;
	ok) echo "workload failed" ;;
	*) echo "$1" ;;
	esac
}

# One trial: workload $1 under tracer $2, repetition $3.  Appends a row to
# trials.tsv: wl tracer rep wall tracer_cpu events lost extra status reason
# wl_cpu.
trial() {
	local wl=$1 tr=$2 rep=$3 base=$RES/trials/$1.$2.$3 tool line status reason
	local wall tcpu ev="-" lost="-" extra=0 losses
	tool=$(tool_of "$tr")
	if [ "$tr" = bare ]; then
		run_benchrun "$base.res" -w "$base.wl" ::: "$BIN/$wl" ${WL_ARGS[$wl]}
	else
		tracer_argv "$tr"
		rm -f "$TMPD/perf.data" "$TMPD/trace.txt"
		run_benchrun "$base.res" -T "$STOP_T" -o "$base.out" -e "$base.err" -w "$base.wl" \
			"${TR[@]}" ::: "$BIN/$wl" ${WL_ARGS[$wl]}
	fi
	line=$(cat "$base.res")
	wall=$(kv wall "$line")
	tcpu=$(kv tracer_cpu "$line")
	status=ok
	reason=
	if [ "$(kv note "$line")" != ok ] || [ "$(kv wl_status "$line")" != exit:0 ]; then
		status=fail
	fi
	case $(kv tracer_status "$line") in
	none|exit:0|signal:2|exit:130) ;;
	signal:9|signal:15) [ "$status" = ok ] && status=killed ;;
	*) status=fail ;;
	esac
	if [ "$status" = killed ]; then
		# The workload ran to the end under the tracer, so its timing holds;
		# the tool's own output and loss count are gone.
		echo "  $wl under $tr: $tool did not exit within $STOP_T s of SIGINT; killed" \
			"(its CPU time so far: ${tcpu:-?} s)"
	elif [ "$status" = fail ]; then
		reason=$(first_error "$base.err")
		[ -n "$reason" ] || reason=$(first_error "$base.wl")
		[ -n "$reason" ] || reason=$(note_text "$(kv note "$line")")", $(kv tracer_status "$line")"
		case $reason in "$tool:"*) ;; *) reason="$tool: $reason" ;; esac
	elif [ "$tr" != bare ]; then
		losses=$(tool_losses "$tool" "$base")
		lost=${losses%% *}
		[ "$losses" != "$lost" ] && extra=${losses#* }
		ev=$(tool_events "$tool" "$base")
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$wl" "$tr" "$rep" "$wall" \
		"${tcpu:-0}" "${ev:--}" "$lost" "$extra" "$status" "$reason" \
		"$(kv wl_cpu "$line")" >>"$RES/trials.tsv"
	# Keep the first repetition's tracer output for inspection; drop the rest.
	[ "$rep" = 1 ] || [ "$status" != ok ] || rm -f "$base.out" "$base.err"
	rm -f "$TMPD/perf.data" "$TMPD/trace.txt"
	if [ "$status" = fail ]; then
		FAILED[$wl.$tr]=$reason
		echo "  $wl under $tr: n/a ($reason)"
	fi
}

# Every repetition visits every cell; the tracer order rotates with the
# repetition so no tracer always runs right after the same neighbour.
run_tracers() {
	local rep i n wl tr cells
	echo "== tracer overhead: $REPS repetitions, workloads: ${WORKLOADS[*]}"
	for ((rep = 1; rep <= REPS; rep++)); do
		echo "  repetition $rep/$REPS ($(($(date +%s) - T0)) s elapsed)"
		for wl in "${WORKLOADS[@]}"; do
			cells=($(cells_of "$wl"))
			n=${#cells[@]}
			for ((i = 0; i < n; i++)); do
				tr=${cells[$(((i + rep - 1) % n))]}
				[ -n "${SKIP[$(tool_of "$tr")]:-}" ] && continue
				[ -n "${FAILED[$wl.$tr]:-}" ] && continue
				trial "$wl" "$tr" "$rep"
			done
		done
	done
}

# ---------------------------------------------------------------- startup
startup_argv() {
	case $1 in
	pmctrace) TR=("$PMCTRACE" -qn 'BEGIN { printf("hi\n"); exit(0); }') ;;
	bpftrace) TR=(bpftrace -e 'BEGIN { printf("hi\n"); exit(); }') ;;
	perf)     TR=(perf stat true) ;;
	esac
}

run_startup() {
	local rep t line first reason
	echo "== startup: $REPS repetitions"
	for ((rep = 1; rep <= REPS; rep++)); do
		for t in pmctrace bpftrace perf; do
			[ -n "${SKIP[$t]:-}" ] && continue
			[ -n "${FAILED[startup.$t]:-}" ] && continue
			startup_argv "$t"
			local want=hi
			[ "$t" = perf ] && want=
			run_benchrun "$RES/startup.$t.res" -T 30 -f "$want" \
				-o "$RES/startup.$t.out" "${TR[@]}"
			line=$(cat "$RES/startup.$t.res")
			first=$(kv first "$line")
			case $first in
			none:*|"")
				reason=$(first_error "$RES/startup.$t.out")
				[ -n "$reason" ] || reason="no \"hi\" line, $(kv status "$line")"
				case $reason in "$t:"*) ;; *) reason="$t: $reason" ;; esac
				FAILED[startup.$t]=$reason
				echo "  startup $t: n/a (${FAILED[startup.$t]})"
				;;
			*)
				printf 'startup\t%s\t%s\t%s\t%s\n' "$t" "$rep" "$first" \
					"$(kv cpu "$line")" >>"$RES/startup.tsv"
				;;
			esac
		done
	done
}

# ---------------------------------------------------------------- subs
run_subs() {
	local d x rc
	for d in "$BENCH"/*/; do
		x=$(basename "$d")
		case $x in bin|results|workloads) continue ;; esac
		if [ -f "$d/Makefile" ]; then
			echo "== bench/$x"
			"$MAKE" --no-print-directory -C "$d" run TOP="$TOP" PMCTRACE="$PMCTRACE" \
				PMCTRACE_BUILD="$PMCTRACE_BUILD" BENCH_QUICK="$QUICK" \
				2>&1 | tee "$RES/sub-$x.log"
			rc=${PIPESTATUS[0]}
			grep '^RESULT ' "$RES/sub-$x.log" >>"$RES/results.txt"
			[ "$rc" = 0 ] || echo "RESULT $x: FAILED (exit $rc; log in results/$STAMP/sub-$x.log)" >>"$RES/results.txt"
		elif [ -f "$d/NOTE" ]; then
			echo "== bench/$x (no Makefile; its NOTE follows)"
			cat "$d/NOTE"
		fi
	done
}

# ---------------------------------------------------------------- report
# Median of column $3 of rows of $1 (tsv) whose first two columns are $2 / $4.
median() {
	awk -F'\t' -v wl="$1" -v tr="$2" -v col="$3" -v file="$4" '
		$1 == wl && $2 == tr && $9 != "fail" && $col != "-" { v[n++] = $col + 0 }
		END {
			if (n == 0) { print "-"; exit }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			print (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
		}' "$4"
}

# How many of a cell's runs had their tracer killed at exit.
killed_runs() {
	awk -F'\t' -v wl="$1" -v tr="$2" '$1 == wl && $2 == tr && $9 == "killed" { n++ }
		END { print n + 0 }' "$3"
}

max_col() {
	awk -F'\t' -v wl="$1" -v tr="$2" -v col="$3" '
		$1 == wl && $2 == tr && $9 != "fail" && $col != "-" { if ($col + 0 > m) m = $col + 0; seen = 1 }
		END { print seen ? m + 0 : "-" }' "$4"
}

# Spread of the wall times of a cell: (max - min) / median, in percent.
spread() {
	awk -F'\t' -v wl="$1" -v tr="$2" '
		$1 == wl && $2 == tr && $9 != "fail" { v = $4 + 0; if (n++ == 0 || v < lo) lo = v; if (v > hi) hi = v }
		END { if (n) printf "%.0f%%", 100 * (hi - lo) / ((hi + lo) / 2) }' "$3"
}

# Smallest value of column $3 for cell $1/$2 of file $4.
min_col() {
	awk -F'\t' -v wl="$1" -v tr="$2" -v col="$3" '
		$1 == wl && $2 == tr && $9 != "fail" { v = $col + 0; if (n++ == 0 || v < m) m = v }
		END { print n ? m : "-" }' "$4"
}

# Slowdown from the fastest runs (traced min / bare min): less sensitive to
# other load on a shared machine, which only ever adds time.
slowdown_min() {
	local b t
	b=$(min_col "$1" bare 4 "$RES/trials.tsv")
	t=$(min_col "$1" "$2" 4 "$RES/trials.tsv")
	[ "$b" = - ] || [ "$t" = - ] && return
	awk -v b="$b" -v t="$t" 'BEGIN { printf "%.3f", t / b }'
}

# Slowdown of tracer $2 on workload $1 (traced median / bare median), or "";
# $3 picks the column: 4 wall time (default), 11 the workload's own CPU time.
slowdown() {
	local b t
	b=$(median "$1" bare "${3:-4}" "$RES/trials.tsv")
	t=$(median "$1" "$2" "${3:-4}" "$RES/trials.tsv")
	[ "$b" = - ] || [ "$t" = - ] && return
	awk -v b="$b" -v t="$t" 'BEGIN { printf "%.3f", t / b }'
}

extra_text() {
	case $1 in
	bpftrace) echo "stack-id errors" ;;
	esac
}

report_tracers() {
	local wl tr tool sd wall tcpu ev lost extra k
	[ -f "$RES/trials.tsv" ] || return
	echo
	echo "Tracer overhead (median of $REPS interleaved runs; slowdown = traced wall / bare wall)"
	printf '%-10s %-15s %8s %6s %9s %9s %9s %13s %10s  %s\n' workload tracer "wall(s)" spread slowdown \
		"(by min)" "(by cpu)" "tracer-cpu(s)" events "lost/drops (max per run)"
	for wl in "${WORKLOADS[@]}"; do
		for tr in $(cells_of "$wl"); do
			tool=$(tool_of "$tr")
			if [ -n "${SKIP[$tool]:-}" ] && [ "$tr" != bare ]; then
				printf '%-10s %-15s n/a (%s: %s)\n' "$wl" "$tr" "$tool" "${SKIP[$tool]}"
				continue
			fi
			if [ -n "${FAILED[$wl.$tr]:-}" ]; then
				printf '%-10s %-15s n/a (%s)\n' "$wl" "$tr" "${FAILED[$wl.$tr]}"
				continue
			fi
			wall=$(median "$wl" "$tr" 4 "$RES/trials.tsv")
			[ "$wall" = - ] && continue
			if [ "$tr" = bare ]; then
				printf '%-10s %-15s %8.3f %6s %8.3fx %8.3fx %8.3fx %13s %10s  %s\n' "$wl" bare "$wall" \
					"$(spread "$wl" bare "$RES/trials.tsv")" 1 1 1 - - -
				continue
			fi
			sd=$(slowdown "$wl" "$tr")
			tcpu=$(median "$wl" "$tr" 5 "$RES/trials.tsv")
			ev=$(median "$wl" "$tr" 6 "$RES/trials.tsv")
			lost=$(max_col "$wl" "$tr" 7 "$RES/trials.tsv")
			extra=$(max_col "$wl" "$tr" 8 "$RES/trials.tsv")
			[ "$extra" != - ] && [ "$extra" != 0 ] && lost="$lost ($extra $(extra_text "$tool"))"
			k=$(killed_runs "$wl" "$tr" "$RES/trials.tsv")
			if [ "$k" != 0 ]; then
				[ "$lost" = - ] && lost= || lost="$lost; "
				lost="${lost}killed at exit in $k run(s): no output, CPU a lower bound"
			fi
			[ "$ev" = - ] || ev=$(printf '%.0f' "$ev")
			printf '%-10s %-15s %8.3f %6s %8.3fx %8.3fx %8.3fx %13.3f %10s  %s\n' "$wl" "$tr" "$wall" \
				"$(spread "$wl" "$tr" "$RES/trials.tsv")" "$sd" "$(slowdown_min "$wl" "$tr")" \
				"$(slowdown "$wl" "$tr" 11)" \
				"$tcpu" "$ev" "$lost"
		done
	done
}

report_startup() {
	local t m
	case " $ONLY " in *" startup "*) ;; *) return ;; esac
	echo
	echo "Startup (median of $REPS; seconds to the first \"hi\" line, perf stat true: to exit)"
	for t in pmctrace bpftrace perf; do
		if [ -n "${SKIP[$t]:-}" ]; then
			printf '  %-9s n/a (%s: %s)\n' "$t" "$t" "${SKIP[$t]}"
		elif [ -n "${FAILED[startup.$t]:-}" ]; then
			printf '  %-9s n/a (%s)\n' "$t" "${FAILED[startup.$t]}"
		else
			m=$(median startup "$t" 4 "$RES/startup.tsv")
			printf '  %-9s %8.4f s   (cpu %.4f s)\n' "$t" "$m" \
				"$(median startup "$t" 5 "$RES/startup.tsv")"
		fi
	done
}

# goal NAME VALUE-OR-EMPTY: prints one line of the goals checklist.
goal_line() {
	printf '  %-58s %s\n' "$1" "$2"
}

# MET when value $1 <= limit $2; a miss smaller than half the run-to-run
# spread $3 ("N%") of pmctrace's cell is said to be within noise.
verdict() {
	awk -v m="$1" -v w="$2" -v sp="${3%\%}" 'BEGIN {
		if (m <= w) print "MET"
		else if (100 * (m - w) / w < sp / 2) printf "NOT MET, within noise (spread %s%%)\n", sp
		else print "NOT MET" }'
}

# Compare pmctrace's median slowdown on $1 under $2 with the peers' ($3...);
# the by-cpu ratios follow as a second opinion that outside load disturbs less.
goal_overhead() {
	local wl=$1 me=$2 mine peer= bycpu p v worst=
	mine=$(slowdown "$wl" "$me")
	shift 2
	if [ -z "$mine" ]; then
		echo "n/a (no pmctrace figure)"
		return
	fi
	bycpu="pmctrace $(slowdown "$wl" "$me" 11)x"
	for p in "$@"; do
		v=$(slowdown "$wl" "$p")
		[ -n "$v" ] || continue
		peer="$peer, ${p%%-*} ${v}x"
		bycpu="$bycpu, ${p%%-*} $(slowdown "$wl" "$p" 11)x"
		worst=$(awk -v a="$v" -v b="${worst:-$v}" 'BEGIN { print (a < b) ? a : b }')
	done
	if [ -z "$worst" ]; then
		echo "n/a (no peer figure)"
		return
	fi
	printf '%s (pmctrace %.3fx%s; by cpu: %s)\n' \
		"$(verdict "$mine" "$worst" "$(spread "$wl" "$me" "$RES/trials.tsv")")" "$mine" "$peer" "$bycpu"
}

# Overhead (slowdown - 1) of $2 on $1 at most $4 times that of peer $3.
goal_within() {
	local mine peer limit
	mine=$(slowdown "$1" "$2")
	peer=$(slowdown "$1" "$3")
	if [ -z "$mine" ] || [ -z "$peer" ]; then
		echo "n/a (missing figure)"
		return
	fi
	limit=$(awk -v p="$peer" -v k="$4" 'BEGIN { print 1 + k * (p - 1) }')
	printf '%s (pmctrace %.3fx, %s %.3fx; by cpu: pmctrace %sx, %s %sx)\n' \
		"$(verdict "$mine" "$limit" "$(spread "$1" "$2" "$RES/trials.tsv")")" \
		"$mine" "${3%%-*}" "$peer" "$(slowdown "$1" "$2" 11)" "${3%%-*}" "$(slowdown "$1" "$3" 11)"
}

goal_startup() {
	local p b
	[ -f "$RES/startup.tsv" ] || { echo "n/a"; return; }
	p=$(median startup pmctrace 4 "$RES/startup.tsv")
	b=$(median startup bpftrace 4 "$RES/startup.tsv")
	if [ "$p" = - ] || [ "$b" = - ]; then
		echo "n/a (missing startup figure)"
		return
	fi
	awk -v p="$p" -v b="$b" 'BEGIN {
		r = b / p; printf "%s (%.1fx: pmctrace %.4f s, bpftrace %.4f s)\n", (r >= 10) ? "MET" : "NOT MET", r, p, b }'
}

# Zero drops where a peer has zero: every cell where perf or bpftrace lost
# nothing must show zero for pmctrace too.
goal_drops() {
	local wl set bad= seen=
	for wl in "${WORKLOADS[@]}"; do
		for set in $(cells_of "$wl"); do
			case $set in pmctrace-*) set=${set#pmctrace-} ;; *) continue ;; esac
			local m pf bp
			m=$(max_col "$wl" "pmctrace-$set" 7 "$RES/trials.tsv")
			pf=$(max_col "$wl" "perf-$set" 7 "$RES/trials.tsv")
			bp=$(max_col "$wl" "bpftrace-$set" 7 "$RES/trials.tsv")
			[ "$m" = - ] && continue
			seen=1
			if { [ "$pf" = 0 ] || [ "$bp" = 0 ]; } && [ "$m" != 0 ]; then
				bad="${bad:+$bad, }$wl/$set ($m)"
			fi
		done
	done
	if [ -z "$seen" ]; then echo "n/a (no pmctrace figure)"
	elif [ -n "$bad" ]; then echo "NOT MET: $bad"
	else echo "MET"
	fi
}

report_goals() {
	[ -f "$RES/trials.tsv" ] || [ -f "$RES/startup.tsv" ] || return
	echo
	echo "Goals (issue 10)"
	[ -f "$RES/trials.tsv" ] && {
		goal_line "profile-999 overhead <= perf's and bpftrace's (cpu_tree)" \
			"$(goal_overhead cpu_tree pmctrace-prof perf-prof bpftrace-prof)"
		goal_line "sched overhead <= perf record's (ctxsw)" \
			"$(goal_overhead ctxsw pmctrace-sched perf-sched)"
		goal_line "sched through BPF <= the perf-only path (ctxsw)" \
			"$(goal_overhead ctxsw pmctrace-sched pmctrace-schedperf)"
		goal_line "zero drops where a peer has zero" "$(goal_drops)"
		goal_line "syscall:::entry overhead <= 2x bpftrace's (syscalls)" \
			"$(goal_within syscalls pmctrace-sys bpftrace-sys 2)"
	}
	goal_line "startup >= 10x faster than bpftrace" "$(goal_startup)"
}

# When the pmctrace binary was built: its mtime says more than the tree's
# commit, which may have moved on (or be dirty) since.
pmctrace_built() {
	if [ -x "$PMCTRACE" ]; then
		echo "built $(date -u -r "$PMCTRACE" '+%Y-%m-%d %H:%M UTC')"
	else
		echo "no binary"
	fi
}

machine() {
	echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine:  $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), kernel $(uname -r)"
	echo "tools:    $(perf version 2>/dev/null || echo 'no perf'), $(bpftrace --version 2>/dev/null || echo 'no bpftrace'), pmctrace at $PMCTRACE ($(pmctrace_built)); tree $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null)"
	echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at the start; other work on the machine adds noise"
	echo "sizes:    cpu_tree ${WL_ARGS[cpu_tree]} rounds, ctxsw ${WL_ARGS[ctxsw]} round trips, pagefault ${WL_ARGS[pagefault]} pages; BENCH_QUICK=$QUICK"
}

# ---------------------------------------------------------------- main
main() {
	machine | tee "$RES/machine.txt"
	preflight
	for t in perf bpftrace pmctrace; do
		[ -n "${SKIP[$t]:-}" ] && echo "skipping $t: ${SKIP[$t]}"
	done
	case " $ONLY " in *" tracers "*) run_tracers ;; esac
	case " $ONLY " in *" startup "*) [ "$(id -u)" = 0 ] && run_startup ;; esac
	case " $ONLY " in *" subs "*) run_subs ;; esac
	{
		echo
		echo "==================== summary ($STAMP) ===================="
		cat "$RES/machine.txt"
		report_tracers
		report_startup
		if [ -s "$RES/results.txt" ]; then
			echo
			echo "Micro-benchmarks (bench/<x>/)"
			cat "$RES/results.txt"
		fi
		report_goals
		echo
		echo "total bench time: $(($(date +%s) - T0)) s; raw data in bench/results/$STAMP/"
	} | tee "$RES/summary.txt"
	ln -sfn "$STAMP" "$BENCH/results/latest"
	prune_results
}

# Keep the newest ten runs' raw data (stamps sort by time).
prune_results() {
	local old
	for old in $(ls -d "$BENCH"/results/[0-9]*T*Z 2>/dev/null | sort | head -n -10); do
		rm -rf "$old"
	done
}

main
