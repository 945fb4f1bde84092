# ASSERTION: tracing never changes the traced program (issue 24): sh running
# a script and a coreutils pipeline print the same stdout and stderr and exit
# with the same status bare and under pid$target:::entry and
# pid$target:::return over every module (sh, libc, ld.so), on the CPU at
# hand: probes whose instruction the kernel's uprobes execute wrongly (EVEX
# string functions on AVX-512 machines, the lazy-binding trampoline for
# return probes) are left out.
. "$TESTROOT/e2e/lib.sh"
. "$TESTROOT/e2e/lib_pid.sh"
need_root
[ -e /sys/bus/event_source/devices/uprobe/type ] || skip "no uprobe PMU in this kernel"
sh "$TESTROOT/mount_tracefs.sh"
[ -w /sys/kernel/tracing/uprobe_events ] || skip "tracefs uprobe_events is not writable here"
cat >script.sh <<'S'
# dash's string handling: parameter expansion, printf formats, case, $(...)
x="abc-42/def%ghi"
echo "${x%%/*} ${x#*/} ${#x}"
for w in one two three; do printf '%s-%d\n' "$w" ${#w}; done
case "$x" in *%*) echo percent;; esac
y=$(echo "$x" | tr a-z A-Z)
echo "$y"
cd / && pwd
i=0; while [ $i -lt 50 ]; do i=$((i + 1)); done; echo "i=$i"
echo "to stderr" >&2
ls /nonexistent 2>&1 | wc -l
exec /bin/echo hello world
S
same_as_bare entry 1000 sh "$PWD/script.sh"
expect_eq "script output" "hello world" "$(tail -n 1 traced.out)"
same_as_bare return 1000 sh "$PWD/script.sh"
pipe="sh -c 'printf \"%s-%d\\\\n\" abc 42 | tr a-z A-Z; seq 1 300 | sort -rn | head -n 3; ls / | wc -l; grep -c root /etc/passwd; exit 3'"
same_as_bare entry 200 "$pipe"
expect_eq "pipeline's first line" "ABC-42" "$(head -n 1 traced.out)"
same_as_bare return 200 "$pipe"
exit 0
