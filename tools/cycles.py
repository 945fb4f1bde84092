#!/usr/bin/env python3
"""cycles.py — file-level include and call cycles inside source folders.

    tools/cycles.py [-b BUILD] [--order a,b,c] DIR...

A node is a file.  An edge a -> b.h means a includes b.h (`#include
"DIR/b.h"`); an edge a.c -> b.c means a.o calls (or reads) a global that
b.o defines (from `nm` of BUILD/DIR/*.o, so run `make` first).  So an
include cycle runs through headers only, and a call cycle through .c files
that call each other, directly or around a ring.  Every strongly
connected component of more than one node is printed with the edges that
tie it, and the exit status is 1 if there is any.  With --order (stems,
earliest stage first), every edge from an earlier stage to a later one is
printed too and also fails.
"""
import os, re, subprocess, sys
from collections import defaultdict

def stems(dirs):
    out = {}
    for d in dirs:
        for f in sorted(os.listdir(d)):
            if f.endswith(('.c', '.h')):
                out[f] = [os.path.join(d, f)]
    return out

def include_edges(nodes, edges):
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for n, files in nodes.items():
        for f in files:
            for line in open(f, errors='replace'):
                m = inc.match(line)
                if not m:
                    continue
                t = os.path.basename(m.group(1))
                if t in nodes and t != n:
                    edges[n][t].add('#include ' + m.group(1))

def nm(obj, defined):
    args = ['nm', '--defined-only' if defined else '-u', obj]
    res = subprocess.run(args, capture_output=True, text=True, check=True)
    for line in res.stdout.splitlines():
        p = line.split()
        if defined and len(p) == 3 and p[1] in 'TDBRVW':
            yield p[2]
        elif not defined and len(p) >= 2:
            yield p[-1]

def call_edges(nodes, dirs, build, edges):
    owner, objs = {}, {}
    for d in dirs:
        for n, files in nodes.items():
            o = os.path.join(build, d, n[:-2] + '.o')
            if n.endswith('.c') and files[0].startswith(d + '/') and os.path.exists(o):
                objs[n] = o
                for s in nm(o, True):
                    owner[s] = n
    for n, o in objs.items():
        for s in nm(o, False):
            t = owner.get(s)
            if t and t != n:
                edges[n][t].add(s)

def sccs(nodes, edges):
    # Tarjan, iterative enough for a few hundred nodes.
    sys.setrecursionlimit(10000)
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1
        stack.append(v); on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]

def why(reasons, n=4):
    r = sorted(reasons)
    return ', '.join(r[:n]) + (' (+%d)' % (len(r) - n) if len(r) > n else '')

def main(argv):
    build, order, dirs = 'build', None, []
    while argv:
        a = argv.pop(0)
        if a == '-b':
            build = argv.pop(0)
        elif a == '--order':
            order = argv.pop(0).split(',')
        else:
            dirs.append(a.rstrip('/'))
    nodes = stems(dirs)
    edges = defaultdict(lambda: defaultdict(set))
    include_edges(nodes, edges)
    call_edges(nodes, dirs, build, edges)
    bad = 0
    for comp in sccs(nodes, edges):
        bad += 1
        print('cycle of %d: %s' % (len(comp), ' '.join(comp)))
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    print('    %s -> %s: %s' % (a, b, why(edges[a][b])))
    if order:
        rank = {s + '.c': k for k, s in enumerate(order)}
        for a in sorted(edges):
            for b in sorted(edges[a]):
                if a in rank and b in rank and rank[a] < rank[b]:
                    bad += 1
                    print('upward: %s -> %s: %s' % (a, b, why(edges[a][b])))
    print('%d cycle(s)%s in %s (%d files)' % (
        bad, ' or upward edges' if order else '', ' '.join(dirs), len(nodes)))
    return 1 if bad else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
