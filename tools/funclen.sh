#!/bin/sh
# funclen.sh DIR... — the longest C functions (lines from the name's line
# to the closing brace, per universal ctags), longest first.  N=20 by default.
ctags --c-kinds=f --fields=+ne -o - $(for d in "$@"; do ls "$d"/*.c; done) |
awk -F'\t' '{ l=""; e="";
	for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
	if (l != "" && e != "") printf "%5d  %s  %s:%s\n", e - l + 1, $1, $2, l }' |
sort -rn | head -n "${N:-20}"
