# ASSERTION: -x oformat=json writes one JSON object per aggregation entry
# (python3 -m json.tool --json-lines parses it), typed keys (a ustack is an
# array of frames), values that add up to the folded total, printa() as
# JSON (not repeated at exit), and printf() output as a probe record.
. "$TESTROOT/e2e/lib.sh"
F="$FIXTURES/local/cpu-clock-g.data"
[ -f "$F" ] || skip "no fixture $F"
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
command -v python3 >/dev/null || skip "no python3"
"$PMCTRACE" -q -x oformat=folded -n 'BEGIN { exit(0); }' >/dev/null 2>probe ||
	skip "-x oformat is not wired into the engine yet: $(head -1 probe)"
P='BEGIN { printf("hello %s\n", "json"); } profile-* { @[execname, ustack()] = count();
    @n[cpu] = count(); @q = quantize(arg0 & 0xff); } END { printa(@n); }'
"$PMCTRACE" -q -E "$F" -n "$P" -x oformat=json >out.json 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
python3 -m json.tool --json-lines out.json >/dev/null || fail "not JSON Lines"
"$PMCTRACE" -q -E "$F" -n 'profile-* { @[execname, ustack()] = count(); }' \
    -x oformat=folded >folded 2>err || { cat err; fail "folded run failed"; }
python3 - out.json folded <<'PY' || fail "JSON records are not what they should be"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
probes = [r for r in recs if r["record"] == "probe"]
assert len(probes) == 1, probes
assert probes[0]["probe"] == "dtrace:::BEGIN" and probes[0]["output"] == "hello json\n", probes[0]
assert isinstance(probes[0]["cpu"], int) and isinstance(probes[0]["timestamp"], int)
recs = [r for r in recs if r["record"] == "aggregation"]
stacks = [r for r in recs if r["name"] == "@"]
assert stacks and all(r["function"] == "count" for r in stacks)
assert all(isinstance(r["keys"][0], str) and isinstance(r["keys"][1], list) for r in stacks)
total = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[2]))
assert sum(r["value"] for r in stacks) == total, "values do not add up"
cpus = [r for r in recs if r["name"] == "@n"]
assert cpus and all(isinstance(r["keys"][0], int) for r in cpus)
assert len(set(r["keys"][0] for r in cpus)) == len(cpus), "printa(@n) and exit both wrote @n"
assert sum(r["value"] for r in cpus) == total
q = [r for r in recs if r["name"] == "@q"]
assert len(q) == 1 and q[0]["function"] == "quantize" and q[0]["keys"] == []
assert sum(b["count"] for b in q[0]["buckets"]) == q[0]["value"] == total
assert all(b["min"] <= b["max"] for b in q[0]["buckets"])
PY
exit 0
