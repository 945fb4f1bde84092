# Issue 20: a run recorded with -E new.data replays, with the identical
# script, to byte-identical aggregations; -l over the recording lists the
# probes the live run used; perf report --stats and perf script read the
# recording (tracepoint events included: its TRACING_DATA feature) and
# count as many samples as pmctrace's replay fires for them.
. "$TESTROOT/e2e/lib.sh"
need_root
command -v perf >/dev/null || skip "perf is not installed"
sh "$TESTROOT/mount_tracefs.sh" >/dev/null 2>&1
# A workload for every provider: it spins, reads, faults, forks and execs,
# and writes to disk, for the whole of each run.
work() {
	while :; do
		head -c 200000 /dev/urandom | od >/dev/null
		dd if=/dev/zero of=rt.tmp bs=64k count=16 oflag=direct 2>/dev/null
		"$HELPERS/pmct_fault" >/dev/null 2>&1
	done
}
work & wpid=$!
trap 'kill $wpid 2>/dev/null; wait $wpid 2>/dev/null; rm -f rt.tmp' EXIT
# Every sample in the file, counted by perf, and by pmctrace with one
# probe per recorded event (roundtrip's third argument).
perf_samples() { perf report --stats -i "$1" 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }'; }
# listed FILE: the probe names -l prints, sorted (dtrace's ERROR & co. excluded)
listed() { "$PMCTRACE" "$@" 2>&1 | awk 'NR > 1 && $2 != "dtrace" { print $2 ":" $(NF) }' | sort -u; }
n=0
roundtrip() {
	name=$1 script=$2 events=$3 opts=${4:-}
	n=$((n+1)); f=rt$n.data
	rm -f "$f"
	timeout 60 "$PMCTRACE" $opts -q -E "$f" -n "$script" >live.out 2>live.err ||
		{ cat live.err; fail "$name: live run with -E $f"; }
	[ -s live.out ] || { cat live.err; fail "$name: the live run printed nothing"; }
	timeout 60 "$PMCTRACE" $opts -q -E "$f" -n "$script" >replay.out 2>replay.err ||
		{ cat replay.err; fail "$name: replay of $f"; }
	diff -u live.out replay.out >diff.out || { cat diff.out; fail "$name: replay differs from the live run"; }
	# the probes the live run enabled (-l with the script) are the file's
	listed $opts -l -n "$script" | grep -v '^profile:tick-' >want.l
	listed -E "$f" -l | grep -v ':sample-src$\|:counter-src$\|:module-load$' >have.l
	missing=$(comm -23 want.l have.l)
	[ -z "$missing" ] || { cat have.l; fail "$name: -E $f -l lacks $missing"; }
	perf report --stats -i "$f" >stats.out 2>&1 || { cat stats.out; fail "$name: perf report --stats"; }
	perf script -i "$f" >script.out 2>&1 || { tail -3 script.out; fail "$name: perf script"; }
	grep -q 'broken or missing' stats.out script.out && fail "$name: perf says the trace data is broken"
	want=$(perf_samples "$f")
	# (perf script prints a group read's members on lines of their own)
	[ "$(grep -c . script.out)" -ge "$want" ] || fail "$name: perf script printed fewer lines than samples"
	# (the in-kernel sched probe's records fire several probes each: no
	# one probe counts them; its -x nobpf twin is counted)
	if [ "$events" != - ]; then
		ours=$("$PMCTRACE" -E "$f" -qn "$events"' { @n = count(); } END { printa("%@d\n", @n); }' 2>/dev/null | head -1)
		[ "$want" = "$ours" ] || fail "$name: perf counts $want samples in $f, pmctrace $ours"
	fi
	echo "ok $name: $(wc -l < live.out) lines of output, $want samples"
}
roundtrip profile 'profile-997 { @[cpu] = count(); } tick-1s { exit(0); }' 'profile-997, tick-1s'
roundtrip tick 'tick-50ms { @t = count(); } tick-1s { exit(0); }' 'tick-50ms, tick-1s'
roundtrip pmc 'pmc:::page-faults-50 { @p[cpu] = count(); } pmc:::task-clock { @t[cpu] = count(); } tick-1s { exit(0); }' 'pmc:::page-faults-50, pmc:::task-clock, tick-1s'
roundtrip sched 'sched:::on-cpu { @[cpu] = count(); } sched:::off-cpu { @o[cpu] = count(); } tick-1s { exit(0); }' -
roundtrip sched-nobpf 'sched:::on-cpu { @[cpu] = count(); } sched:::off-cpu { @o[cpu] = count(); } tick-1s { exit(0); }' 'tracepoint:sched:sched_switch, tick-1s' '-x nobpf'
roundtrip sched-pmc 'sched::pmc:off-cpu-task-clock { @[cpu] = sum(arg5); } tick-1s { exit(0); }' -
roundtrip sched-pmc-nobpf 'sched::pmc:off-cpu-task-clock { @[cpu] = sum(arg5); } tick-1s { exit(0); }' 'tracepoint:sched:sched_switch, tick-1s' '-x nobpf'
roundtrip syscall 'syscall::read:entry { @[cpu] = count(); } syscall::read:return { @r[cpu] = sum(arg0); } tick-1s { exit(0); }' 'tracepoint:syscalls:sys_enter_read, tracepoint:syscalls:sys_exit_read, tick-1s'
roundtrip proc 'proc:::exec-success { @[execname] = count(); } proc:::exit { @e[cpu] = count(); } tick-1s { exit(0); }' 'tracepoint:sched:sched_process_exec, tracepoint:sched:sched_process_exit, tracepoint:syscalls:sys_enter_exit_group, tracepoint:syscalls:sys_enter_exit, tracepoint:signal:signal_generate, tracepoint:signal:signal_deliver, tick-1s'
roundtrip io 'io:::start { @[cpu] = count(); } tick-1s { exit(0); }' 'tracepoint:block:block_rq_issue, tick-1s'
roundtrip vminfo 'vminfo:::as_fault { @[cpu] = count(); } tick-1s { exit(0); }' 'tracepoint:exceptions:page_fault_user, tracepoint:exceptions:page_fault_kernel, tick-1s'
roundtrip tracepoint 'tracepoint:sched:sched_wakeup { @[cpu] = count(); } tick-1s { exit(0); }' 'tracepoint:sched:sched_wakeup, tick-1s'
# pid: a process's function, its entry and return (the probes' table is
# in the recording: its uprobes are gone once the run ends)
"$HELPERS/symtarget" spin 30 >st.out 2>&1 & spid=$!
i=0; until grep -q '^ready$' st.out; do i=$((i+1)); [ $i -gt 200 ] && fail "symtarget never got ready"; sleep 0.1; done
roundtrip pid "pid$spid:symtarget:st_outer:entry { @e[arg0 % 7] = count(); } pid$spid:symtarget:st_outer:return { @r = count(); } tick-1s { exit(0); }" \
    "pid$spid:symtarget:st_outer:entry, pid$spid:symtarget:st_outer:return, tick-1s"
kill $spid; wait $spid 2>/dev/null
# A -c command that runs a while as sh before it execs pmct_spin: the
# samples taken before the exec carry the name the child had then, live
# as in the replay and in perf script (live once named them after the exec).
rm -f c.data
cmd="sh -c 'i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done; exec $HELPERS/pmct_spin 0.3'"
timeout 60 "$PMCTRACE" -q -E c.data -n 'profile-997 { @[execname] = count(); }
profile-997 /pid == $target/ { @t[execname] = count(); }
END { printa("target %s %@d\n", @t); }' -c "$cmd" >live.out 2>live.err ||
	{ cat live.err; fail "-c: live run"; }
pid=$(sed -n 's/^pmctrace: pid \([0-9]*\) has exited$/\1/p' live.err)
[ -n "$pid" ] || { cat live.err; fail "-c: no target pid"; }
perf script -i c.data -F pid,comm 2>/dev/null | awk -v p="$pid" '$2 == p { n[$1]++ } END { for (c in n) print "target", c, n[c] }' | sort >perf.t
grep '^target ' live.out | sort >live.t
grep -q '^target sh ' live.t || { cat live.t; fail "-c: no sample of the child before its exec"; }
diff -u perf.t live.t || fail "-c: live execname of the target differs from perf script's"
timeout 60 "$PMCTRACE" -q -E c.data -n 'profile-997 { @[execname] = count(); }' >replay.out 2>&1 ||
	{ cat replay.out; fail "-c: replay"; }
grep -v '^target ' live.out | diff -u - replay.out || fail "-c: replay differs from the live run"
echo "ok -c: $(cat live.t | tr '\n' ' ')"
exit 0
