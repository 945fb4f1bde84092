# vtimestamp is the thread's time on CPU: it grows with a spinner's CPU
# time (checked against getrusage), not across a sleep, and in BEGIN/END it
# is pmctrace's own thread's; replay from a recording gives the same.
. "$TESTROOT/e2e/lib.sh"
need_root
"$PMCTRACE" -qn 'BEGIN { v = vtimestamp; printf("%d %d\n", v > 0, v < timestamp); }
END { printf("%d\n", vtimestamp >= v); }' -n 'tick-1ms /i++ == 20/ { exit(0); }' >out 2>err ||
    { cat err; fail "BEGIN/END status"; }
expect_eq "BEGIN/END vtimestamp" "1 1
1" "$(cat out)"

# A spinner: the largest vtimestamp seen in its samples is its CPU time.
"$PMCTRACE" -qn 'profile-997 /pid == $target/ { @ = max(vtimestamp); }' \
    -c "$HELPERS/pmct_spin 1 cputime" >out 2>err || { cat err; fail "spin status"; }
got=$(awk 'NF == 1 { print $1 }' out)
want=$(sed -n 's/^cputime //p' err)
[ -n "$got" ] && [ -n "$want" ] || { cat out err; fail "missing figures"; }
# Switch records it reports dropped (a saturated machine switches a lot)
# leave time uncounted: then only the upper bound holds.
lo=0.9; grep -q ' drops on CPU ' err && lo=0
awk -v g="$got" -v w="$want" -v lo=$lo 'BEGIN { r = g / w; exit !(r > lo && r <= 1.02) }' ||
    { cat out err; fail "max vtimestamp $got ns, getrusage says $want ns"; }

# A sleeper: 200 ms asleep in clock_nanosleep, well under 20 ms on CPU.
"$PMCTRACE" -qn '
syscall::clock_nanosleep:entry /pid == $target/ { self->t = timestamp; self->v = vtimestamp; }
syscall::clock_nanosleep:return /self->t/ {
	printf("wall %d cpu %d\n", (timestamp - self->t) / 1000000, (vtimestamp - self->v) / 1000000);
	self->t = 0; }' -c "sleep 0.2" -E vt.data >out 2>err || { cat err; fail "sleep status"; }
grep -Eq '^wall (19[0-9]|2[0-9][0-9]) cpu 1?[0-9]$' out || { cat out err; fail "sleep: wall vs cpu"; }
# the same from the recording: of that one sleep (the recording holds every
# process's sleeps, and other tests may run sleep meanwhile)
sp=$(sed -n 's/^pmctrace: pid \([0-9]*\) has exited$/\1/p' err)
[ -n "$sp" ] || { cat err; fail "no pid for the sleep"; }
"$PMCTRACE" -qn '
syscall::clock_nanosleep:entry /pid == $1/ { self->t = timestamp; self->v = vtimestamp; }
syscall::clock_nanosleep:return /self->t/ {
	printf("wall %d cpu %d\n", (timestamp - self->t) / 1000000, (vtimestamp - self->v) / 1000000);
	self->t = 0; }' -E vt.data "$sp" >out2 2>err || { cat err; fail "replay status"; }
expect_eq "replayed vtimestamp" "$(cat out)" "$(cat out2)"
exit 0
