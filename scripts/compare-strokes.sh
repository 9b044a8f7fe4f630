#!/usr/bin/env bash
# The stroke pipeline beside perfect-freehand, on the same strokes, from one command.
#
#   scripts/compare-strokes.sh [sets, default short,session,long] [passes, default 5]
#
# 1. Writes the shared ink-quality harness's seeded stroke files (../shared/tools/ink-quality,
#    one stroke per line, [x, y, t_ms, pressure] points at 240 Hz) under .ink-quality/data
#    if they are not there.
# 2. `ink-replay bench strokes` (release build) on each set: ns per point, median of the
#    passes, parsing untimed.
# 3. perfect-freehand (its Python port, 1.2.0, installed from PyPI into .bench-venv, not
#    vendored) on the same files: `get_stroke` once over each finished stroke, and, as apps
#    call it, again over the whole stroke on every new point (the short set only: it grows
#    with the stroke's length). Same timing rule: median of the passes, parsing untimed.
# Any other library can be put beside these: read the same files, print ns per point.
set -euo pipefail
cd "$(dirname "$0")/.."
sets="${1:-short,session,long}"
passes="${2:-5}"
harness="${INK_QUALITY_HARNESS:-../shared/tools/ink-quality}"
export INK_QUALITY_DIR="$PWD/.ink-quality"
data="$INK_QUALITY_DIR/data"
[ -f "$data/session.jsonl" ] || python3 "$harness/gen_strokes.py" >/dev/null
files=()
for set in ${sets//,/ }; do files+=("$data/$set.jsonl"); done

swift build -c release --product ink-replay >/dev/null
bin="$(swift build -c release --show-bin-path)/ink-replay"
echo "ScratchpadInk StrokeBuilder (this build, release)"
"$bin" bench strokes "${files[@]}" --passes "$passes"

[ -x .bench-venv/bin/python ] || python3 -m venv .bench-venv
.bench-venv/bin/python -m pip install -q perfect-freehand==1.2.0
echo
echo "perfect-freehand 1.2.0 (Python port), ns per point, median of $passes passes"
.bench-venv/bin/python - "$passes" "${files[@]}" <<'PY'
import json, os, sys, time
from perfect_freehand import get_stroke

passes, files = int(sys.argv[1]), sys.argv[2:]

def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

def timed(fn, points):
    runs = []
    for _ in range(passes):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return median(runs) / points * 1e9

print(f"{'strokes':>7}  {'points':>7}  {'one call':>10}  {'every point':>12}  set")
for path in files:
    with open(path) as f:
        strokes = [[[p[0], p[1], p[3] if len(p) > 3 else 0.5] for p in json.loads(line)] for line in f if line.strip()]
    points = sum(len(s) for s in strokes)
    once = timed(lambda: [get_stroke(s, size=3, last=True) for s in strokes], points)
    every = "-"
    if os.path.basename(path) == "short.jsonl":
        every = f"{timed(lambda: [get_stroke(s[:k], size=3) for s in strokes for k in range(1, len(s) + 1)], points):.0f}"
    print(f"{len(strokes):7d}  {points:7d}  {once:10.0f}  {every:>12}  {path}")
PY
