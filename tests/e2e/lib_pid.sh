# Shared by the pid_nochange tests (sourced): run a command bare and traced.
#
# same_as_bare KIND MIN CMD: CMD (a shell command line, run with stdin from
# /dev/null) bare, then under pmctrace -c with 'pid$target:::KIND' over every
# module; its stdout, stderr and exit status must be byte-identical, and the
# probes must have fired at least MIN times in the target.  A traced run
# attaches thousands of uprobes: tens of seconds, more on a busy machine.
same_as_bare() {
	k=$1 min=$2; shift 2
	sh -c "exec $* >bare.out 2>bare.err </dev/null"
	echo "status $?" >bare.st
	"$PMCTRACE" -q -n "pid\$target:::$k { @ = count(); }" -c "$* >traced.out 2>traced.err </dev/null" \
	    >pm.out 2>pm.err || { cat pm.err; fail "pmctrace failed under $k: $*"; }
	sed -n 's/^pmctrace: pid [0-9]* exited with status \([0-9]*\)$/status \1/p
	    s/^pmctrace: pid [0-9]* has exited$/status 0/p
	    s/^pmctrace: pid [0-9]* terminated by \(.*\)$/signal \1/p' pm.err >traced.st
	for f in out err st; do
		cmp -s bare.$f traced.$f && continue
		echo "--- bare $f"; cat bare.$f; echo "--- traced $f"; cat traced.$f; echo "--- pmctrace"; cat pm.err
		fail "$k probes changed the $f of: $*"
	done
	n=$(awk 'NF == 1 { print $1 }' pm.out)
	[ -n "$n" ] && [ "$n" -ge "$min" ] || { cat pm.out pm.err; fail "$k fired '$n' times, want >= $min: $*"; }
	echo "$k: same output, $n firings: $*"
}
