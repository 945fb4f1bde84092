# ASSERTION: -o x.pb.gz writes a gzip'd profile.proto that an independent
# reader (tests/e2e/out_lib.py, written from profile.proto) decodes into the
# same stacks as the folded output, typed "samples"/"count" for profile-*
# and named after the counter for a pmc probe.
. "$TESTROOT/e2e/lib.sh"
F="$FIXTURES/local/cpu-clock-g.data"
[ -f "$F" ] || skip "no fixture $F"
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
command -v python3 >/dev/null || skip "no python3"
"$PMCTRACE" -q -x oformat=folded -n 'BEGIN { exit(0); }' >/dev/null 2>probe ||
	skip "-x oformat is not wired into the engine yet: $(head -1 probe)"
P='profile-* { @[stack(), ustack()] = count(); }'
"$PMCTRACE" -q -E "$F" -n "$P" -x oformat=folded >folded 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
"$PMCTRACE" -q -E "$F" -n "$P" -o cpu.pb.gz 2>err || { cat err; fail "-o cpu.pb.gz failed"; }
python3 "$TESTROOT/e2e/out_lib.py" pprof cpu.pb.gz >decoded || fail "pprof did not decode"
expect_grep "# sample_type \[('samples', 'count')\]" decoded
grep -v '^#' decoded | sed 's/;/:/g' >got
sed 's/;/:/g' folded >want
diff -u want got >diff || { cat diff; fail "pprof stacks differ from the folded ones"; }
n=$(awk '/^# nsamples/ { print $3 }' decoded)
[ "$n" -ge 3 ] || fail "only $n samples"
# Google's own parser, given the fields pmctrace writes (no Go needed)
if command -v protoc >/dev/null; then
	gunzip -c cpu.pb.gz | protoc --proto_path="$TESTROOT/e2e" \
	    --decode=pmctrace.pprof.Profile "$TESTROOT/e2e/out_pprof_schema.proto" >text ||
	    fail "protoc could not decode the profile"
	[ "$(grep -c '^sample {' text)" = "$n" ] || fail "protoc sees another number of samples"
	[ "$(grep -m1 '^string_table:' text)" = 'string_table: ""' ] || fail "string_table[0] is not empty"
fi
# sum() of a time counter weighs nanoseconds (arg2 is the period in ns of
# cpu-clock-1000000); count() of the same probe counts samples
G="$FIXTURES/local/group-read-cpuclock-msrtsc.data"
"$PMCTRACE" -q -E "$G" -n 'pmc:::cpu-clock-1000000 { @[execname] = sum(arg2); }' -o ns.pb.gz 2>err ||
	{ cat err; fail "sum() to pprof failed"; }
python3 "$TESTROOT/e2e/out_lib.py" pprof ns.pb.gz >decoded || fail "the sum() pprof did not decode"
expect_grep "# sample_type \[('cpu-clock', 'nanoseconds')\]" decoded
"$PMCTRACE" -q -E "$G" -n 'pmc:::cpu-clock-1000000 { @[execname] = count(); }' -o n.pb.gz 2>err ||
	{ cat err; fail "count() to pprof failed"; }
python3 "$TESTROOT/e2e/out_lib.py" pprof n.pb.gz >decoded || fail "the count() pprof did not decode"
expect_grep "# sample_type \[('cpu-clock', 'count')\]" decoded
if command -v go >/dev/null && go tool pprof -raw cpu.pb.gz >raw 2>&1; then
	expect_grep 'samples/count' raw
fi
exit 0
