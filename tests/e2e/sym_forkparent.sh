# A process that predates the run forks short-lived children: they carry
# its name (execname) until they exec, and their ppid is its pid though
# they are gone from /proc before the events are read.
. "$TESTROOT/e2e/lib.sh"
need_root
cp "$(command -v dash || command -v sh)" ./pmct_forker || fail "cannot copy sh"
./pmct_forker -c 'while :; do /bin/true; done' >/dev/null 2>&1 &
loop=$!
trap 'kill $loop 2>/dev/null' EXIT
sleep 0.3
"$PMCTRACE" -qn 'syscall::execve:entry /ppid == $1/ { @[execname] = count(); } tick-1s { exit(0); }
END { printa("[%s] %@d\n", @); }' $loop >out 2>err || { cat err; fail "exit status"; }
grep -Eq '^\[pmct_forker\] [1-9][0-9]*$' out || { cat out err; fail "children's execname before exec"; }
grep -q '^\[\]' out && { cat out; fail "children with no execname"; }
exit 0
