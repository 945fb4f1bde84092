# ASSERTION: replaying damaged perf.data files (bytes flipped in the record
# stream, files cut short) through the whole pipeline — reader, providers,
# symbolizer, D engine with stacks and aggregations — never crashes or
# hangs: each run exits 0, or 1 with a "pmctrace: ..." message.  The seed
# is fixed, so every run tries the same inputs (FAULT_SEED, FAULT_N=copies
# per fixture change them).  The perf.data reader alone is fuzzed in
# tests/fuzz; this covers what sits on top of it.
. "$TESTROOT/e2e/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
cc="$FIXTURES/local/cpu-clock-g.data"		# profile + user/kernel callchains
sw="$FIXTURES/local/sched_switch-a.data"	# sched tracepoint RAW payloads
gd="$FIXTURES/quipper/perf.data.group_desc-4.14"	# pmc events, group
for f in "$cc" "$sw" "$gd"; do [ -f "$f" ] || skip "fixture $f is missing"; done
# mutate SRC PREFIX N: N copies; odd ones with 1-16 bytes changed past the
# first 256 bytes, even ones cut at a random length.
mutate() {
	python3 - "$1" "$2" "$3" <<'EOS'
import os, random, sys
src, prefix, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, 'rb').read()
rng = random.Random(int(os.environ.get("FAULT_SEED", "11")))
for i in range(n):
    b = bytearray(data)
    if i % 2:
        for _ in range(rng.randint(1, 16)):
            b[rng.randrange(256, len(b))] = rng.randrange(256)
    else:
        del b[rng.randrange(64, len(b)):]
    open('%s.%03d' % (prefix, i), 'wb').write(bytes(b))
EOS
}
n=${FAULT_N:-40}
mutate "$cc" cc $n; mutate "$sw" sw $n; mutate "$gd" gd $n
cp "$cc" cc.intact; cp "$sw" sw.intact; cp "$gd" gd.intact
PCC='profile-4000 { @[execname, stack(), ustack()] = count(); @t[tid] = sum(arg0); } END { printa(@t); }'
PSW='sched:::off-cpu { @[execname, stack()] = count(); @q = quantize(pid); } sched:::on-cpu { @on[cpu] = count(); }'
PGD='pmc::: { @[probename, execname] = count(); @s[pid] = sum(arg0); }'
runs=0; ok0=0; ok1=0
# try FILE PROGRAM
try() {
	runs=$((runs + 1))
	timeout 60 "$PMCTRACE" -q -Z -E "$1" -n "$2" >out 2>err; rc=$?
	case $rc in
	0) ok0=$((ok0 + 1)) ;;
	1) ok1=$((ok1 + 1))
	   grep -q '^pmctrace: ' err || { cat err; fail "$1: exit 1 without a pmctrace: message"; } ;;
	124) fail "$1: hung (killed after 60 s)" ;;
	*) tail -5 err; fail "$1: exit status $rc" ;;
	esac
}
# The programs are valid: the intact files replay with exit 0 and output.
for f in cc sw gd; do
	case $f in
	cc) p=$PCC ;; sw) p=$PSW ;; gd) p=$PGD ;;
	esac
	"$PMCTRACE" -q -Z -E $f.intact -n "$p" >out 2>err || { cat err; fail "$f.intact does not replay"; }
	[ -s out ] || fail "$f.intact: no output"
	rm $f.intact
done
for f in cc.*; do try "$f" "$PCC"; done
for f in sw.*; do try "$f" "$PSW"; done
for f in gd.*; do try "$f" "$PGD"; done
echo "$runs damaged replays: $ok0 exited 0, $ok1 failed cleanly"
exit 0
