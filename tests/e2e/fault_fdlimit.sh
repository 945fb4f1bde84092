# ASSERTION: too few file descriptors (ulimit -n 32, 20 profile probes = one
# perf fd per probe per CPU) gives one clear error naming the limit, exit
# status 1, no BEGIN output, and no partial state: no -c child left behind.
. "$TESTROOT/e2e/lib.sh"
need_root
# A private copy of the workload, so that no other test's process is counted.
cp "$HELPERS/pmct_spin" ./pmct_fdlim_spin
prog=""
for r in $(seq 101 120); do prog="$prog profile-$r { @[$r] = count(); }"; done
(ulimit -n 32 && exec timeout 20 "$PMCTRACE" -q -n "BEGIN { printf(\"begin\\n\"); } $prog" \
    -c "./pmct_fdlim_spin 7") >out 2>err
rc=$?
expect_eq "exit status" 1 "$rc"
expect_eq "stderr lines" 1 "$(wc -l < err)"
grep -Eq '^pmctrace: could not enable tracing: cannot open profile-[0-9]+ \(cpu [0-9]+\): too many open files; raise the limit with ulimit -n$' err ||
	{ cat err; fail "unexpected message"; }
expect_eq "stdout" "" "$(cat out)"
gone pmct_fdlim_spin || { left=$(pgrep -x pmct_fdlim_spin); kill -KILL $left; fail "the -c child outlived pmctrace: $left"; }
exit 0
