"""out_lib.py — independent readers for the out_*.sh end-to-end tests.

Written from the published formats, sharing no code with dcons/dout_*.c:
  collapse  DTrace's stack aggregation text -> folded lines (what
            stackcollapse.pl does for DTrace output, offsets dropped)
  pprof     gzip + protobuf wire format -> folded lines via profile.proto
  svg       the flame graph's frames: name, count, x, width, y
  png       minimal PNG decoder (8-bit RGB/RGBA, all five filters)
Usage: python3 out_lib.py collapse FILE | pprof FILE | svgcheck FILE | pngcolors FILE
"""
import gzip
import re
import sys
import xml.etree.ElementTree as ET
import zlib

SVGNS = "{http://www.w3.org/2000/svg}"


def fold(pairs):
    """Sum (path, count) pairs into sorted 'path count' lines."""
    acc = {}
    for path, n in pairs:
        acc[path] = acc.get(path, 0) + n
    return "".join("%s %d\n" % (p, acc[p]) for p in sorted(acc))


def collapse(text):
    """DTrace's @[stack()] / @[ustack()] text: frame lines leaf first, then
    the count alone on a line; blocks apart."""
    pairs, frames = [], []
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if re.fullmatch(r"-?\d+", s):
            if frames:
                pairs.append((";".join(reversed(frames)), int(s)))
            frames = []
            continue
        frames.append(re.sub(r"\+0x[0-9a-f]+$", "", s).replace(";", ":"))
    return fold(pairs)


# ---- protobuf -----------------------------------------------------------

def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def fields(b):
    """(field number, wire type, value) of a message; LEN values are bytes."""
    i, out = 0, []
    while i < len(b):
        tag, i = varint(b, i)
        wt = tag & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError("unexpected wire type %d" % wt)
        out.append((tag >> 3, wt, v))
    return out


def repeated(wt, v):
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def pprof(data):
    """Decode a gzip'd profile.proto into a dict and folded lines."""
    msg = fields(gzip.decompress(data))
    strings = [v.decode("utf-8") for f, wt, v in msg if f == 6]
    assert strings and strings[0] == "", "string_table[0] must be empty"
    funcs, locs, maps, samples, stypes = {}, {}, {}, [], []
    for f, wt, v in msg:
        if f == 1:
            d = dict((ff, vv) for ff, _, vv in fields(v))
            stypes.append((strings[d.get(1, 0)], strings[d.get(2, 0)]))
        elif f == 2:
            ids, vals = [], []
            for ff, w, vv in fields(v):
                if ff == 1:
                    ids += repeated(w, vv)
                elif ff == 2:
                    vals += repeated(w, vv)
            samples.append((ids, vals))
        elif f == 3:
            d = dict((ff, vv) for ff, _, vv in fields(v))
            maps[d[1]] = d
        elif f == 4:
            d, lines = {}, []
            for ff, w, vv in fields(v):
                if ff == 4:
                    lines.append(dict((a, c) for a, _, c in fields(vv)))
                else:
                    d[ff] = vv
            d["lines"] = lines
            locs[d[1]] = d
        elif f == 5:
            d = dict((ff, vv) for ff, _, vv in fields(v))
            funcs[d[1]] = d
    for l in locs.values():
        assert l.get(2, 0) == 0 or l[2] in maps, "location maps to no mapping"
        for ln in l["lines"]:
            assert ln[1] in funcs, "line names no function"
    pairs = []
    for ids, vals in samples:
        assert len(vals) == len(stypes), "sample values != sample types"
        names = [strings[funcs[locs[i]["lines"][0][1]][2]] for i in ids]
        pairs.append((";".join(reversed(names)).replace(";", ";"), vals[0]))
    return {"sample_type": stypes, "nsamples": len(samples),
            "nlocations": len(locs), "nfunctions": len(funcs),
            "nmappings": len(maps), "folded": fold(pairs)}


# ---- SVG ------------------------------------------------------------------

def svg_frames(path):
    """Every <g class="f">: (name, count, x, width, y)."""
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(SVGNS + "g"):
        if g.get("class") != "f":
            continue
        title = g.find(SVGNS + "title").text
        rect = g.find(SVGNS + "rect")
        m = re.fullmatch(r"(.*) \((\d+) [^,]+, [0-9.]+%\)", title, re.S)
        assert m, "bad tooltip: %r" % title
        out.append((m.group(1), int(m.group(2)), float(rect.get("x")),
                    float(rect.get("width")), float(rect.get("y"))))
    return root, out


# ---- PNG --------------------------------------------------------------------

def png_pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, idat, w = 8, b"", None
    while i < len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        i += 12 + n
        if kind == b"IHDR":
            w, h = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, ctype = body[8], body[9]
            assert depth == 8 and ctype in (2, 6), "unsupported PNG"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "collapse":
        sys.stdout.write(collapse(open(path).read()))
    elif cmd == "pprof":
        p = pprof(open(path, "rb").read())
        for k in ("sample_type", "nsamples", "nlocations", "nfunctions", "nmappings"):
            print("#", k, p[k])
        sys.stdout.write(p["folded"])
    elif cmd == "pngcolors":
        w, h, bpp, rows = png_pixels(path)
        seen = set()
        for r in rows:
            for x in range(0, w * bpp, bpp):
                seen.add(r[x:x + 3])
        print(w, h, len(seen))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
