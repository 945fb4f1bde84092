# ASSERTION: -o x.svg writes a well-formed, self-contained flame graph: one
# frame per node of the merged stacks (slivers under 0.1 px left out),
# widths proportional to counts, children inside their parents, the title
# naming the script and counter, the search box and script present; the
# icicle puts the root on top.  With Chromium installed it renders, and its
# script zooms and reports the searched share of samples correctly.
. "$TESTROOT/e2e/lib.sh"
F="$FIXTURES/local/cpu-clock-g.data"
[ -f "$F" ] || skip "no fixture $F"
[ -x "$PMCTRACE" ] || skip "no pmctrace binary"
command -v python3 >/dev/null || skip "no python3"
"$PMCTRACE" -q -x oformat=folded -n 'BEGIN { exit(0); }' >/dev/null 2>probe ||
	skip "-x oformat is not wired into the engine yet: $(head -1 probe)"
P='profile-* { @[execname, stack(), ustack()] = count(); }'
"$PMCTRACE" -q -E "$F" -n "$P" -x oformat=folded >folded 2>err; rc=$?
[ $rc = 0 ] || { cat err; fail "exit status $rc"; }
"$PMCTRACE" -q -E "$F" -n "$P" -o cpu.svg 2>err || { cat err; fail "-o cpu.svg failed"; }
"$PMCTRACE" -q -E "$F" -n "$P" -x oformat=svg -x flamereverse \
    -x flametitle='off-CPU <test>' >ice.svg 2>err || { cat err; fail "icicle failed"; }
python3 - "$TESTROOT/e2e" folded cpu.svg ice.svg <<'PY' || fail "SVG check failed"
import sys
sys.path.insert(0, sys.argv[1])
import out_lib
lines = [l.rstrip("\n").rsplit(" ", 1) for l in open(sys.argv[2])]
total = sum(int(n) for _, n in lines)
# the tree the SVG must draw: every path prefix, with its weight
nodes = {(): total}
for path, n in lines:
    fr = tuple(path.split(";"))
    for d in range(1, len(fr) + 1):
        nodes[fr[:d]] = nodes.get(fr[:d], 0) + int(n)
scale = 1180.0 / total
shown = [k for k in nodes if all(nodes[k[:d]] * scale >= 0.1 for d in range(len(k) + 1))]
root, frames = out_lib.svg_frames(sys.argv[3])
assert len(frames) == len(shown), "%d frames for %d nodes" % (len(frames), len(shown))
assert frames[0][:2] == ("all", total), frames[0]
for name, n, x, w, y in frames:
    assert abs(w - n * scale) < 0.01, (name, n, w)
    assert 10 - 0.01 <= x and x + w <= 1190 + 0.02, (name, x, w)
ys = sorted(set(f[4] for f in frames))
assert frames[0][4] == ys[-1], "flame: root not at the bottom"
S = out_lib.SVGNS
title = [t for t in root.iter(S + "text") if t.get("id") == "title"][0].text
assert "profile-*" in title and "samples" in title, title
assert len(list(root.iter(S + "script"))) == 1
assert any(e.get("id") == "search" for e in root.iter("{http://www.w3.org/1999/xhtml}input"))
src = open(sys.argv[3]).read()
assert "href" not in src and src.count("http") == 2, "must fetch nothing"
iroot, iframes = out_lib.svg_frames(sys.argv[4])
assert iframes[0][4] == min(f[4] for f in iframes), "icicle: root not on top"
ititle = [t for t in iroot.iter(S + "text") if t.get("id") == "title"][0].text
assert ititle == "off-CPU <test>", ititle
PY
# keys with markup, control bytes and invalid UTF-8 still give well-formed XML
"$PMCTRACE" -q -n 'BEGIN { @a["<&\"\001\377>", 1] = count(); @b[";x", 2] = sum(3); exit(0); }' \
    -o nasty.svg 2>err || { cat err; fail "nasty keys failed"; }
python3 - "$TESTROOT/e2e" nasty.svg <<'PY' || fail "nasty keys broke the SVG"
import sys
sys.path.insert(0, sys.argv[1])
import out_lib
root, frames = out_lib.svg_frames(sys.argv[2])
names = [f[0] for f in frames]
assert names == ["all", "@a", '<&"??>', "1", "@b", ";x", "2"], names
PY
CHROME=$(command -v chromium || command -v chromium-browser) || { echo "chromium not installed: rendering not checked"; exit 0; }
# Render it; then a copy whose extra script clicks a frame and searches.
chrome() { timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --user-data-dir="$(mktemp -d)" --window-size=1200,800 "$@" 2>/dev/null; }
chrome --screenshot="$PWD/cpu.png" "file://$PWD/cpu.svg" >/dev/null
[ -s cpu.png ] || fail "chromium wrote no screenshot"
set -- $(python3 "$TESTROOT/e2e/out_lib.py" pngcolors cpu.png)
[ "$1" = 1200 ] && [ "$3" -ge 20 ] || fail "screenshot ${1}x$2 has only $3 colours"
# search for the leaf function of the heaviest stack
word=$(awk '/`/ && $NF > max { max = $NF; l = $0 } END { sub(/ [0-9]+$/, "", l);
    n = split(l, f, ";"); print f[n] }' folded | sed 's/.*`//; s/[^A-Za-z0-9_].*//')
[ -n "$word" ] || fail "no function name to search for"
sed 's|</svg>||' cpu.svg >probe.svg
cat >>probe.svg <<JS
<script type="text/javascript"><![CDATA[
window.addEventListener('load', function () {
  var g = document.querySelectorAll('g.f')[1];
  g.dispatchEvent(new MouseEvent('click'));
  var i = document.getElementById('search'); i.value = '$word';
  i.dispatchEvent(new Event('input'));
  g.dispatchEvent(new MouseEvent('mouseover'));
});
]]></script>
</svg>
JS
chrome --virtual-time-budget=3000 --dump-dom "file://$PWD/probe.svg" >dom
python3 - folded dom "$word" <<'PY' || fail "the SVG's script misbehaved in Chromium"
import re, sys
lines = [l.rstrip("\n").rsplit(" ", 1) for l in open(sys.argv[1])]
total = sum(int(n) for _, n in lines)
word = sys.argv[3]
hit = sum(int(n) for p, n in lines if any(word in f for f in p.split(";")[0:]))
dom = open(sys.argv[2]).read()
m = re.search(r'id="matched"[^>]*>Matched: ([0-9.]+)%<', dom)
assert m, "no Matched: text"
assert abs(float(m.group(1)) - 100.0 * hit / total) <= 0.15, (m.group(1), 100.0 * hit / total)
assert re.search(r'id="details"[^>]*>[^<]+ \(\d+ samples, [0-9.]+%\)<', dom), "no hover details"
assert 'fill="rgb(230,0,230)"' in dom, "no highlighted frame"
assert re.search(r'id="reset"[^>]*style="opacity: 1', dom), "zoom did not happen"
PY
exit 0
