# docs/pmctrace.1: groff renders it without a single warning, man -l shows
# it, every option letter of cli/options.c's getopt string and every long
# option has its own entry in OPTIONS, and every provider under providers/
# has its own subsection in PROVIDERS, and every fixed probe that
# pmctrace -l lists is described there; every script in dscripts/ is named
# in FILES, has a header with USAGE and EXAMPLE, and an end-to-end test.
. "$TESTROOT/e2e/lib.sh"
root="$TESTROOT/.."
page="$root/docs/pmctrace.1"
[ -f "$page" ] || fail "docs/pmctrace.1 is missing"
command -v groff >/dev/null || skip "groff is not installed"

groff -ww -z -man "$page" >gout 2>gerr; rc=$?
[ $rc = 0 ] || { cat gerr; fail "groff exit status $rc"; }
[ -s gerr ] && { cat gerr; fail "groff -ww warns"; }
[ -s gout ] && { cat gout; fail "groff -z wrote output"; }

if command -v man >/dev/null; then
	MANWIDTH=80 man -l "$page" >rendered 2>merr || { cat merr; fail "man -l failed"; }
	[ -s merr ] && { cat merr; fail "man -l complained"; }
	for sec in NAME SYNOPSIS DESCRIPTION OPTIONS OPERANDS PROVIDERS 'COUNTER NAMES' \
	    'REGISTER BUDGET' OUTPUT 'EXIT STATUS' ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
		grep -q "^$sec\$" rendered || fail "rendered page has no $sec section"
	done
fi
# whatis/apropos read the NAME line through lexgrog.
if command -v lexgrog >/dev/null; then
	lexgrog "$page" | grep -q ': "pmctrace - ' || { lexgrog "$page"; fail "lexgrog cannot read the NAME section"; }
fi

# The option string as the program parses it, e.g. "-:b:c:CD:eE:...".
opts=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' "$root/cli/options.c")
[ -n "$opts" ] || fail "no getopt string found in cli/options.c"
letters=$(printf '%s' "$opts" | tr -d -- '-:')
[ ${#letters} -ge 20 ] || fail "getopt string '$opts' looks wrong"
# Each letter needs an OPTIONS entry: a ".TP" followed by ".B \-X" or ".BI \-X ...".
entries=$(awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 }
    on && prev == ".TP" { print } { prev = $0 }' "$page")
missing=
for l in $(printf '%s' "$letters" | fold -w1); do
	printf '%s\n' "$entries" | grep -q "^\.BI\{0,1\} \\\\-$l\( \|\$\)" || missing="$missing -$l"
done
for long in $(sed -n 's/^[[:space:]]*{ "\([a-z]*\)", [a-z_]*, NULL, OPT_.*/\1/p' "$root/cli/options.c"); do
	printf '%s\n' "$entries" | grep -q "^\.B \\\\-\\\\-$long\$" || missing="$missing --$long"
done
[ -z "$missing" ] || fail "options without an entry in docs/pmctrace.1:$missing"

for d in "$root"/providers/*/; do
	p=$(basename "$d")
	grep -q "^\.SS $p\$" "$page" || fail "provider $p has no subsection in PROVIDERS"
done

# Probes with a fixed name (not counters, rates, syscalls, tracepoints or
# pid probes, whose names are made on demand): each as provider:::name.
if [ -x "$PMCTRACE" ]; then
	"$PMCTRACE" -l >list 2>lerr || { cat lerr; fail "pmctrace -l failed"; }
	sed 's/\\-/-/g' "$page" >plain
	awk 'NR > 1 && NF == 3 && $2 !~ /^(pmc|profile|syscall|tracepoint)$/ && $2 !~ /^pid/ { print $2 ":::" $3 }' list |
	    sort -u >fixed
	[ -s fixed ] || fail "pmctrace -l listed no fixed probes"
	while read -r pr; do
		grep -q "$pr" plain || echo "$pr"
	done <fixed >undocumented
	[ -s undocumented ] && fail "probes not in docs/pmctrace.1: $(tr '\n' ' ' <undocumented)"
fi

for f in "$root"/dscripts/*.d; do
	[ -e "$f" ] || continue
	n=$(basename "$f" .d)
	grep -q "^\.B $n\.d\$" "$page" || fail "dscripts/$n.d is not named in docs/pmctrace.1"
	head -60 "$f" | grep -q '^ \* USAGE: pmctrace -s '"$n"'\.d' || fail "dscripts/$n.d has no USAGE line in its header"
	head -60 "$f" | grep -q '^ \* EXAMPLE: ' || fail "dscripts/$n.d has no EXAMPLE in its header"
	[ -f "$root/tests/e2e/dscripts_$n.sh" ] || fail "dscripts/$n.d has no tests/e2e/dscripts_$n.sh"
done
exit 0
