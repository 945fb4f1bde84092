#!/bin/sh
# ASSERTION: `pmctrace --hw` exits 0 and says plainly whether hardware
#   counters can be opened; where the kernel exposes no CPU PMU it says so
#   and points to the software counters.  `--hw -x json` is valid JSON with
#   the same facts.
# SECTION: pmu / capability probing
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to check the JSON"; exit 77; }
out=$(mktemp); trap 'rm -f "$out" "$out.json"' EXIT
dev=/sys/bus/event_source/devices
has_pmu=0
for d in "$dev"/cpu "$dev"/cpu_core "$dev"/armv8_* "$dev"/armv9_*; do
	[ -e "$d" ] && has_pmu=1
done

"$PMCTRACE" --hw > "$out" 2>&1 || { echo "pmctrace --hw exited $?"; cat "$out"; exit 1; }
grep -q '^Hardware counters' "$out" || { echo "no Hardware counters section"; cat "$out"; exit 1; }
for want in 'perf_event_paranoid:' 'CAP_PERFMON:' 'tracefs_mounted:' 'tracepoint_groups:' \
    'uprobes:' 'bpf:' 'general_purpose:' '  cpu-clock  opens=yes' '  instructionretired  resolves='; do
	grep -qF -- "$want" "$out" || { echo "missing: $want"; cat "$out"; exit 1; }
done
if [ $has_pmu = 0 ]; then
	grep -q 'needs a hardware PMU, and none is exposed here (' "$out" ||
		{ echo "no-PMU machine but no no-PMU statement"; cat "$out"; exit 1; }
	grep -q 'software counters work: cpu-clock, task-clock, page-faults, context-switches' "$out" ||
		{ echo "no pointer to the software counters"; cat "$out"; exit 1; }
	grep -q 'available: no' "$out" || { echo "claims hardware counters"; exit 1; }
fi

"$PMCTRACE" --hw -x json > "$out.json" 2>"$out" || { echo "pmctrace --hw -x json exited $?"; cat "$out"; exit 1; }
python3 -m json.tool "$out.json" > /dev/null || { echo "--hw -x json is not JSON"; head -c 2000 "$out.json"; exit 1; }
python3 - "$out.json" "$has_pmu" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("hardware_counters", "cpu", "kernel_pmus", "libpfm4", "budget",
          "permissions", "tracing", "software_events", "aliases"):
    assert k in r, "missing key " + k
names = {a["name"] for a in r["aliases"]}
assert "branchmispredictions" in names and "timer" in names, names
assert any(s["name"] == "cpu-clock" and s["opens"] for s in r["software_events"])
if sys.argv[2] == "0":
    hc = r["hardware_counters"]
    assert hc["available"] is False, hc
    assert "none is exposed here" in hc["statement"], hc
PY
echo "pmctrace --hw: ok"
