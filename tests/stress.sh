#!/bin/sh
# make test-stress: run a test target while busy loops saturate every CPU,
# as on a loaded build machine (the live tests must wait for readiness and
# count enough events, never rely on timing).  Two loops per CPU at nice 0,
# so the tests compete for CPU as they would with other jobs.
# Usage: tests/stress.sh RUNS COMMAND...   runs COMMAND RUNS times in a row;
# exit status 0 only if every run passed.
runs=$1; shift
n=$(( $(nproc) * 2 ))
hogs=
i=0
while [ $i -lt $n ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
trap 'kill $hogs 2>/dev/null' EXIT
trap 'exit 130' INT TERM
echo "test-stress: $n busy loops on $(nproc) CPUs, $runs run(s) of: $*"
failed=0; k=1
while [ $k -le "$runs" ]; do
	"$@"; rc=$?
	[ $rc -eq 0 ] || failed=$((failed + 1))
	echo "test-stress: run $k of $runs: $([ $rc -eq 0 ] && echo passed || echo "FAILED (exit $rc)"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	k=$((k + 1))
done
echo "test-stress: $((runs - failed)) of $runs runs passed under load"
[ $failed -eq 0 ]
