#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""gen-walks.py DIR K NS NU - an export where irq-check's pairs are joined
only by strong walks (graph.h): a deadlock cycle X <-> Y with a K-clique
on X, NS hardirq-safe classes -(ER)-> X and X -(SN)-> NU hardirq-unsafe
ones.  No pair has a simple strong path, and telling so is a search over
the clique's simple paths: irq-check's shared work bound keeps it short.
The Graph writer is the one of proc-interface/fixtures/analysis/gen.py."""
import os
import sys

SRC = os.path.join(os.path.dirname(__file__), "..", "..", "proc-interface",
                   "fixtures", "analysis", "gen.py")
ns = {}
exec(compile(open(SRC).read().split("\n# ---")[0], SRC, "exec"), ns)
Graph = ns["Graph"]

d, K, NS, NU = sys.argv[1], *map(int, sys.argv[2:5])
g = Graph()
g.c("X", ("USED", "USED_READ"))
g.c("Y")
for k in range(K):
    g.c("c%02d" % k)
for i in range(NS):
    g.c("s%03d" % i, ("USED_IN_HARDIRQ", "USED"))
for j in range(NU):
    g.c("u%03d" % j, ("ENABLED_HARDIRQ", "USED"))
g.d("X", "Y")
g.d("Y", "X")
for k in range(K):
    g.d("X", "c%02d" % k)
    g.d("c%02d" % k, "X")
    for m in range(K):
        if k != m:
            g.d("c%02d" % k, "c%02d" % m)
for i in range(NS):
    g.d("s%03d" % i, "X", "ER")
for j in range(NU):
    g.d("X", "u%03d" % j, "SN")
g.export(d)
