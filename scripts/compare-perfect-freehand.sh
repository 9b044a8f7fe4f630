#!/usr/bin/env bash
# Runs perfect-freehand (its Python port, 1.2.0, installed from PyPI into .bench-venv, not
# vendored) on the same 240 Hz scribble as Benchmarks/ and `ink-replay bench geometry`:
# the cost per input point of one call over a whole stroke, and of the usual app pattern,
# which calls it again over the whole stroke on every new point.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .bench-venv/bin/python ] || python3 -m venv .bench-venv
.bench-venv/bin/python -m pip install -q perfect-freehand==1.2.0
.bench-venv/bin/python - <<'PY'
import math, time
from perfect_freehand import get_stroke

def scribble(n):
    # The same curve as Workload.scribble in Benchmarks/ (jitter omitted: it does not
    # change the cost), with pressure.
    return [[100 + 40 * (i / 240) + 20 * math.cos(9 * i / 240), 100 + 25 * math.sin(13 * i / 240), 0.5] for i in range(n)]

def per_point(fn, points, repeat):
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat / points * 1e9

print("perfect-freehand 1.2.0 (Python port), ns per input point")
for n in (100, 1000):
    pts = scribble(n)
    once = per_point(lambda: get_stroke(pts, size=3, last=True), n, 20 if n == 100 else 3)
    app = per_point(lambda: [get_stroke(pts[:k], size=3) for k in range(1, n + 1)], n, 2 if n == 100 else 1)
    print(f"{n:6d}-point stroke: one call {once:10.0f} ns/point; called on every new point {app:12.0f} ns/point")
PY
