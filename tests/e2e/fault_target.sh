# ASSERTION: the -c target ending ends the run with dtrace(1)'s notice on
# stderr, END and the aggregations still print, exit status 0:
#   pid N has exited / pid N exited with status S / pid N terminated by SIGSEGV
# (DTrace's prochandler in dtrace.c; the signal named as proc_signame does).
. "$TESTROOT/e2e/lib.sh"
need_root
# check NAME WANT-REGEX CMD
check() {
	timeout 60 "$PMCTRACE" -q -n 'tick-10ms { @n = count(); }
	    END { printf("end\n"); printa("ticks %@d\n", @n); }' -c "$3" >out 2>err
	rc=$?
	expect_eq "$1: exit status" 0 "$rc"
	expect_eq "$1: END output" "end" "$(head -1 out)"
	grep -q '^ticks [0-9][0-9]*$' out || { cat out; fail "$1: no aggregation"; }
	grep -Eq "^pmctrace: pid [0-9]+ $2\$" err || { cat err; fail "$1: want 'pmctrace: pid N $2'"; }
	expect_eq "$1: stderr lines" 1 "$(wc -l < err)"
}
check "clean exit" "has exited" "$HELPERS/pmct_spin 1"
check "exit status" "exited with status 3" "sh -c 'sleep 0.3; exit 3'"
check "crash" "terminated by SIGSEGV" "sh -c 'sleep 0.3; kill -SEGV \$\$'"
exit 0
