#!/bin/sh
# ASSERTION: with a target machine named (-x pmumodel=NAME or
#   LIBPFM_FORCE_PMU), -e resolves counter names by that model's tables and
#   plans them against its register budget on this machine too (PMU or
#   not): exit 0 when the script fits, 1 with the budget named when not;
#   -x pmcplan prints which counter sits on which register; every
#   dscripts/*.d compiles for Skylake.
# SECTION: pmu / planning for another machine
root=${TESTROOT:-$(cd "$(dirname "$0")/.." && pwd)}/..
out=$(mktemp); err=$(mktemp); trap 'rm -f "$out" "$err"' EXIT
fail() { echo "$1"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
run() { "$PMCTRACE" "$@" > "$out" 2> "$err"; }

# The issue's cases, as on a Skylake server (SMT on: 4 general-purpose).
LIBPFM_FORCE_PMU=skl run -e -n 'sched::pmc:off-cpu-BR_MISP_RETIRED.ALL_BRANCHES { }
    sched::pmc:off-cpu-INST_RETIRED.ANY { }' || fail "skl off-cpu pair: exit $?"
for c in instructionretired-100003 cycles INST_RETIRED.ANY r00c0 skl.UOPS_ISSUED.ANY.u; do
	run -e -x pmumodel=skl -n "pmc:::$c { }" || fail "skl pmc:::$c: exit $?"
done
twelve=""
for c in r00c4 r00c5 r412e r4f2e r010e r01c2 r02c2 r20d1 r01d1 r02d1 r04d1 r08d1; do
	twelve="$twelve pmc:::$c { }"
done
run -e -x pmumodel=skl -n "$twelve"
[ $? = 1 ] || fail "twelve counters on skl: want exit 1"
grep -q ': 5 hardware counters requested (r00c4, r00c5, r412e, r4f2e, r010e), Intel Skylake counts 4 general-purpose + 3 fixed per CPU with SMT on; remove 1 or use -x pmcmultiplex$' "$err" ||
	fail "no budget message"
run -e -x pmumodel=skl -x pmcmultiplex -n "$twelve" || fail "multiplexed: exit $?"

# The plan, exactly.
run -e -q -x pmumodel=skl -x pmcplan -n 'sched::pmc:off-cpu-BR_MISP_RETIRED.ALL_BRANCHES { }
    sched::pmc:off-cpu-INST_RETIRED.ANY { } pmc:::cycles-100000 { }' || fail "plan: exit $?"
cat > "$out.want" <<'PLAN'
pmc plan for skl (Intel Skylake)
  Intel Skylake: 4 general-purpose (SMT on) + 3 fixed counters per logical CPU
    source: hwdb/budgets.txt:31 (intel/perfmon SKL/events/skylake_core.json: INST_RETIRED.ANY "counted by a designated fixed counter, leaving the four (eight when Hyperthreading is disabled) programmable counters"; Fixed counter 0/1/2)

  set 1: counters read together at each switch, 2 counters
    counter                       event                              register
    BR_MISP_RETIRED.ALL_BRANCHES  skl::BR_MISP_RETIRED:ALL_BRANCHES  general-purpose 0
    INST_RETIRED.ANY              r00c0                              fixed 0
    uses 1 of 4 general-purpose and 1 of 3 fixed: fits

  set 2: pmc:::<counter> probes, each sampling on its own, 1 counter
    counter  event   register
    cycles   cycles  fixed 1
    uses 0 of 4 general-purpose and 1 of 3 fixed: fits

  all 2 sets at once:
    1 general-purpose of 4 and 2 fixed of 3: fit, no multiplexing
PLAN
diff "$out.want" "$out" > "$err" || { rm -f "$out.want"; fail "plan differs"; }
rm -f "$out.want"

# Ice Lake with SMT off: 4 fixed + 8 general-purpose, loads on PMC0-3 only.
icl="pmc:::INST_RETIRED.ANY { } pmc:::cycles { } pmc:::ref-cycles { } pmc:::TOPDOWN.SLOTS { }"
for c in MEM_LOAD_RETIRED.L1_MISS MEM_LOAD_RETIRED.L2_MISS MEM_LOAD_RETIRED.L3_MISS r00c4 r00c5 r412e r4f2e r010e; do
	icl="$icl pmc:::$c { }"
done
run -e -x pmumodel=icl -x pmusmt=off -x pmcplan -n "$icl" || fail "icl: exit $?"
grep -q '^    uses 8 of 8 general-purpose and 4 of 4 fixed: fits$' "$out" || fail "icl: not 8 + 4"
grep -q '^    TOPDOWN.SLOTS  *icl::TOPDOWN:SLOTS  *fixed 3$' "$out" || fail "icl: slots not on fixed 3"
run -e -x pmumodel=icl -x pmusmt=off -n "$icl pmc:::MEM_LOAD_RETIRED.L1_HIT { }"
[ $? = 1 ] || fail "icl: a 9th general-purpose counter fitted"
run -e -x pmumodel=icl -n "pmc:::r01d1 { } pmc:::r02d1 { } pmc:::r04d1 { } pmc:::r08d1 { } pmc:::r20d1 { }"
[ $? = 1 ] || fail "icl: five loads fitted PMC0-3"
grep -q 'r20d1 can only be counted on general-purpose counters 0-3 of Intel Icelake (hwdb/constraints.txt:[0-9]*), which r01d1, r02d1, r04d1, r08d1 hold' "$err" ||
	fail "icl: no constraint message"

# A hybrid (Raptor Lake): each counter on both core types.
run -e -x pmumodel=rpl -x pmcplan -n 'sched::pmc:off-cpu-instructions { } sched::pmc:off-cpu-r00c5 { }' ||
	fail "rpl: exit $?"
grep -q '^    instructions  *r\?[0-9a-z]*  *fixed 0  *fixed 0$' "$out" || fail "rpl: instructions not on both fixed 0"
grep -q '^    Intel Alder/Raptor Lake E-core (Gracemont): uses 1 of 6 general-purpose and 1 of 3 fixed: fits$' "$out" ||
	fail "rpl: no E-core line"

# Zen 4 (libpfm4's table, 6 counters) and Neoverse N1 (hwdb only).
six=""
for c in RETIRED_INSTRUCTIONS cycles branchmispredictions RETIRED_OPS r76 RETIRED_BRANCH_INSTRUCTIONS; do
	six="$six pmc:::$c { }"
done
run -e -x pmumodel=zen4 -n "$six" || fail "zen4: six: exit $?"
run -e -x pmumodel=zen4 -n "$six pmc:::rc1 { }"
[ $? = 1 ] || fail "zen4: seven fitted"
grep -q '7 hardware counters requested (.*), AMD Zen 4 counts 6 general-purpose + 0 fixed per CPU; remove 1' "$err" ||
	fail "zen4: no budget message"
run -e -x pmumodel=neoverse_n1 -x pmcplan -n 'pmc:::cycles { } pmc:::instructionretired { } pmc:::r1b { }' ||
	fail "n1: exit $?"
grep -q '^    cycles  *cycles  *fixed 0$' "$out" || fail "n1: cycles not on the cycle counter"
run -e -x pmumodel=neoverse_n1 -n 'pmc:::BR_MISP_RETIRED.ALL_BRANCHES { }'
[ $? = 1 ] && grep -q 'this libpfm4 has no event table for Arm Neoverse N1' "$err" || fail "n1: Intel name accepted"

# -l lists the model's hardware counters (this machine may have none).
run -l -P pmc -x pmumodel=skl || fail "-l skl: exit $?"
for c in instructionretired unhaltedreferencecyclesfixed branchmispredictions totalissues; do
	grep -q " pmc  *$c\$" "$out" || fail "-l skl does not list $c"
done

# Only counting needs the hardware: without -e a machine with no PMU says so.
dev=/sys/bus/event_source/devices
if ! ls -d "$dev"/cpu "$dev"/cpu_core "$dev"/armv8_* "$dev"/armv9_* > /dev/null 2>&1; then
	run -x pmumodel=skl -n 'pmc:::cycles { exit(0); }'
	[ $? = 1 ] || fail "traced a hardware counter without a PMU"
	grep -q 'cycles needs a hardware PMU, .*; -e checks the program for skl without one$' "$err" ||
		fail "no pointer to -e"
fi

# A model nobody knows is refused, not planned as this machine.
run -e -x pmumodel=no_such_cpu -n 'pmc:::cycles { }'
[ $? = 1 ] || fail "unknown model: want exit 1"
grep -q 'failed to set -x pmumodel: no_such_cpu is not a model hwdb/budgets.txt or this libpfm4 knows' "$err" ||
	fail "unknown model: message"

# --hw for a model: its budget and counters, as JSON for other tools.
run --hw -x pmumodel=zen4 -x json || fail "--hw zen4: exit $?"
python3 - "$out" <<'PY' || fail "--hw zen4 json"
import json, sys
d = json.load(open(sys.argv[1]))
b = d["budget"]
assert (b["model"], b["general_purpose"], b["fixed"], b["simulated"]) == ("AMD Zen 4", 6, 0, True), b
assert b["general_purpose_source"].startswith("hwdb/budgets.txt:"), b
a = {x["name"]: x for x in d["aliases"]}
assert a["instructionretired"]["encoding"] == "4:0xc0", a["instructionretired"]
assert a["unhaltedreferencecycles"]["resolves"] is False, a["unhaltedreferencecycles"]
PY
run --hw -x pmumodel=rpl -x json || fail "--hw rpl: exit $?"
python3 - "$out" <<'PY' || fail "--hw rpl json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["target"]["core_types"] == 2
assert (d["budget"]["general_purpose"], d["budget"]["fixed"]) == (8, 4)
assert (d["budget_second_core_type"]["general_purpose"], d["budget_second_core_type"]["fixed"]) == (6, 3)
PY
run --hw -x pmumodel=list || fail "--hw list: exit $?"
grep -q '^zen5  *zen5,amd64_fam1ah_zen5  *6  *6  *0  *-  *AMD Zen 5$' "$out" || fail "list: no zen5 row"
run --hw -x pmumodel=skl -n 'pmc:::INST_RETIRED.ANY { }' || fail "--hw with a script: exit $?"
grep -q '^    INST_RETIRED.ANY  *r00c0  *fixed 0$' "$out" || fail "--hw with a script: no plan"

# Every shipped script compiles for Skylake.
for f in "$root"/dscripts/*.d; do
	case $(basename "$f") in
	ipc.d) args="instructionretired unhaltedcorecycles" ;;
	pmcsrc.d) args="cycles-1000003 instructionretired" ;;
	branchmiss.d) args="branchmispredictions-10007" ;;
	cachemiss.d) args="llcmisses-10007" ;;
	offcpu_pmc.d|pmc.d) args="instructionretired" ;;
	*) args="" ;;
	esac
	# shellcheck disable=SC2086
	run -e -x pmumodel=skl -s "$f" $args || fail "$(basename "$f") $args: exit $?"
done
echo "planning for skl, icl, rpl, zen4, neoverse_n1 and the dscripts: ok"
