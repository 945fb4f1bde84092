# ASSERTION: every destructive action (freopen, system, raise, stop, chill,
# breakpoint, panic) is refused without -w before anything runs, with
# DTrace's message and exit status 1: no file written, no program run, no
# BEGIN output.  -w (or the destructive option, even from a pragma after
# the action) allows them.
. "$TESTROOT/e2e/lib.sh"
want="pmctrace: could not enable tracing: Destructive actions not allowed"
echo keep > victim
for act in 'freopen("victim")' 'system("touch ran")' 'raise(9)' 'stop()' 'chill(1)' \
    'breakpoint()' 'panic()'; do
	"$PMCTRACE" -qn "BEGIN { printf(\"begin\n\"); } BEGIN { $act; printf(\"x\n\"); exit(0); }" \
	    >out 2>err
	rc=$?
	expect_eq "$act: exit status" 1 "$rc"
	expect_eq "$act: stderr" "$want" "$(cat err)"
	expect_eq "$act: stdout" "" "$(cat out)"
done
expect_eq "freopen's file" keep "$(cat victim)"
[ ! -e ran ] || fail "system() ran without -w"
# -w and the pragma allow them
"$PMCTRACE" -wqn 'BEGIN { freopen("victim"); printf("x\n"); exit(0); }' >out 2>err ||
	{ cat err; fail "-w freopen"; }
expect_eq "freopen with -w (appends, as DTrace)" "keep,x," "$(paste -sd, victim)"
printf 'BEGIN { system("touch ran"); exit(0); }\n#pragma D option destructive\n' > p.d
"$PMCTRACE" -qs p.d >out 2>err || { cat err; fail "pragma destructive"; }
[ -e ran ] || fail "system() did not run with the pragma"
# -e (compile only) enables nothing, so nothing is refused
"$PMCTRACE" -e -n 'BEGIN { system("true"); }' >out 2>err || { cat err; fail "-e refused"; }
exit 0
