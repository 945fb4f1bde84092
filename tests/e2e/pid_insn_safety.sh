# ASSERTION: the pid provider never places a uprobe on an instruction of its
# safety table (providers/pid/pid_insn.h): on pmct_insns, whose functions
# start with EVEX, VEX and legacy instructions, entry and return probes over
# the whole program leave the EVEX and branch-emulated VEX entries out (with
# one notice per reason), or place them past such a first instruction when
# it keeps the argument registers, and the program prints exactly what it
# prints bare; the safe neighbours fire once per call.  A probe named on a refused
# site fails with the reason; an offset inside an instruction or on a
# syscall is refused.  Last, for information only, the same functions under
# raw tracefs uprobes show whether this kernel still mis-executes them.
. "$TESTROOT/e2e/lib.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
sh "$TESTROOT/mount_tracefs.sh"
prog=$PWD/pmct_insns
cp "$HELPERS/pmct_insns" "$prog"	# our own copy: raw uprobes below touch only it
"$prog" >bare 2>&1 || fail "pmct_insns failed bare: $(cat bare)"
grep -q "WRONG" bare && fail "pmct_insns is wrong bare: $(cat bare)"
expect_grep "^sysfork child exited 7$" bare
has512=0; grep -q "^evex_gpr ok$" bare && has512=1
has2=0; grep -q "^vex_paddb ok$" bare && has2=1

"$PMCTRACE" -n 'pid$target:a.out::entry, pid$target:a.out::return { @[probefunc, probename] = count(); }' \
    -c "$prog >traced 2>&1" >out 2>err || { cat err; fail "traced run failed"; }
diff bare traced >/dev/null || { diff bare traced; fail "the traced program printed something else"; }
expect_grep "^pmctrace: pid [0-9]* has exited$" err
# evex_gpr, vex_por and vex_store run only such instructions up to their
# ret; evex_store (then a nop) and vex_cmpeq (then vpand) get entry probes
# past their first instruction
expect_grep "^pmctrace: 1 pid probe left out: EVEX-encoded (AVX-512) instructions (evex_gpr; see INSTRUCTIONS NEVER PROBED in pmctrace(1))$" err
expect_grep "^pmctrace: 2 pid probes left out: VEX-encoded instructions with opcode byte 0x70-0x7f, .* (vex_por and others; see INSTRUCTIONS NEVER PROBED in pmctrace(1))$" err
expect_grep "^pmctrace: 2 pid entry probes placed past a first instruction that is never probed but writes no argument register (evex_store and others; see INSTRUCTIONS NEVER PROBED in pmctrace(1))$" err
# fired: count = calls (3 each) where the CPU ran them; left out: absent
fires() { awk -v f="$1" -v n="$2" '$1 == f && $2 == n { print $3 }' out; }
expect_eq "leg_riprel entry" 3 "$(fires leg_riprel entry)"
expect_eq "leg_sse entry" 3 "$(fires leg_sse entry)"
expect_eq "sysfork return (the parent's)" 1 "$(fires sysfork return)"
for f in evex_gpr vex_por vex_store; do
	expect_eq "$f entry (left out)" "" "$(fires $f entry)"
done
[ $has512 = 1 ] && expect_eq "evex_store entry (past vpbroadcastb)" 3 "$(fires evex_store entry)"
if [ $has2 = 1 ]; then
	expect_eq "vex_cmpeq entry (past vpcmpeqb)" 3 "$(fires vex_cmpeq entry)"
	expect_eq "vex_paddb entry" 3 "$(fires vex_paddb entry)"
	expect_eq "vex_riprel entry" 3 "$(fires vex_riprel entry)"
	expect_eq "vex_cmpeq return" 3 "$(fires vex_cmpeq return)"
fi
[ $has512 = 1 ] && expect_eq "evex_gpr return" 3 "$(fires evex_gpr return)"

# -l lists the return probe of evex_gpr, not its entry
"$PMCTRACE" -l -n 'pid$target:a.out:evex_gpr:' -c "$prog" >list 2>&1
expect_eq "-l evex_gpr" "return" "$(awk 'NR > 1 { print $5 }' list)"

# naming a refused site fails, with the reason
refused() {
	"$PMCTRACE" -q -n "pid\$target:a.out:$1 { @ = count(); }" -c "$prog" >rout 2>rerr
	rc=$?
	expect_eq "exit status for $1" 1 "$rc"
	expect_grep "pid provider: probe $1 left out: $2.* are never probed (see INSTRUCTIONS NEVER PROBED in pmctrace(1))" rerr
}
refused evex_gpr:entry "EVEX-encoded (AVX-512) instructions"
refused vex_store:entry "VEX-encoded instructions with opcode byte"
refused sysfork:5 "system-call instructions (syscall, sysenter, int)"
refused evex_store:3 "offsets inside an instruction"
# the nop after evex_store's EVEX instruction is fine
"$PMCTRACE" -n 'pid$target:a.out:evex_store:6 { @ = count(); }' -c "$prog >traced6 2>&1" >out6 2>err6 ||
    { cat err6; fail "evex_store:6"; }
diff bare traced6 >/dev/null || { diff bare traced6; fail "evex_store:6 changed the program"; }
[ $has512 = 1 ] && expect_eq "evex_store:6 firings" 3 "$(awk 'NF == 1 { print $1 }' out6)"

# glibc's __strchr_evex (named only with libc's full symbol table, from
# libc6-dbg) starts with vpbroadcastb %esi,%ymm17 (EVEX) then mov %edi,%eax:
# its entry probe sits on the mov, sees strchr's arguments, and
# sh -c 'exec /bin/echo hello world' still prints hello world.
"$PMCTRACE" -l -n 'pid$target:libc.so.6:__strchr_sse2:entry' -c true >elist 2>&1
if grep -q "__strchr_sse2 *entry" elist; then
	"$PMCTRACE" -q -n 'pid$target:libc.so.6:__strchr*:entry { @ = count(); }' -c "sh -c 'exec /bin/echo hello world'" >eout 2>eerr ||
	    { cat eerr; fail "strchr glob"; }
	expect_eq "hello world" "hello world" "$(head -n 1 eout)"
	expect_grep "^pmctrace: [0-9]* pid entry probes* placed past a first instruction .* (__strchr" eerr
	"$PMCTRACE" -l -n 'pid$target:libc.so.6:__strchr_evex:entry' -c true >elist 2>&1
	expect_grep "__strchr_evex entry" elist
	# strchr's second argument is a character (dash looks for '/', '%', '=' ...)
	if grep -q avx512bw /proc/cpuinfo && grep -q avx512vl /proc/cpuinfo; then
		"$PMCTRACE" -q -n 'pid$target:libc.so.6:__strchr_evex:entry { @[arg1 > 0 && arg1 < 128] = count(); }' \
		    -c "sh -c 'exec /bin/echo hello world'" >eout 2>eerr || { cat eerr; fail "strchr args"; }
		expect_eq "strchr's arg1 is a character" 1 "$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ { print $1 }' eout)"
	fi
else
	echo "libc has no __strchr_evex symbol here (libc6-dbg): that part is not run"
fi

# For information: raw uprobes (no pmctrace) on the refused entries of our
# own copy, to show whether this kernel still executes them wrongly.
ev=/sys/kernel/tracing/uprobe_events
if [ -w $ev ] && command -v objdump >/dev/null; then
	grp=pmctest_$$
	for f in evex_gpr vex_cmpeq vex_store; do
		off=$(objdump -d "$prog" | sed -n "s/^0*\([0-9a-f]*\) <$f>:\$/\1/p")
		[ -n "$off" ] && echo "p:$grp/$f $prog:0x$off" >>$ev
	done
	for e in /sys/kernel/tracing/events/$grp/*/enable; do echo 1 >"$e"; done 2>/dev/null
	"$prog" >raw 2>&1
	for e in /sys/kernel/tracing/events/$grp/*/enable; do echo 0 >"$e"; done 2>/dev/null
	for f in evex_gpr vex_cmpeq vex_store; do echo "-:$grp/$f" >>$ev; done 2>/dev/null
	echo "under raw uprobes this kernel ran: $(grep -E '^(evex_gpr|vex_cmpeq|vex_store) ' raw | tr '\n' ' ')"
fi
exit 0
