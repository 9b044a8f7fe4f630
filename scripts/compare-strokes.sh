#!/usr/bin/env bash
# The stroke pipeline beside perfect-freehand, on the same strokes, from one command.
#
#   scripts/compare-strokes.sh [sets, default short,session] [passes, default 5] [rounds, default 3]
#
# 1. Writes the shared ink-quality harness's seeded stroke files (../shared/tools/ink-quality,
#    one stroke per line, [x, y, t_ms, pressure] points at 240 Hz) under .ink-quality/data
#    if they are not there.
# 2. Interleaved, `rounds` times, file by file: `ink-replay bench strokes` (release build) on
#    a file, then perfect-freehand's JavaScript `getStroke` (1.2.2, on node) on the same file:
#    ns per point, each the median of `passes` passes, parsing untimed, so a change in the
#    machine's load touches both alike. The table shows the median over the rounds, and the
#    ratios: the median of each round's own ratio.
#    With BEFORE_BIN=<another ink-replay>, that build runs in the same rounds too.
# 3. With valgrind: instructions per sample of append and of the outline
#    (scripts/stroke-callgrind.py), for this build and BEFORE_BIN. Deterministic, unlike time.
# 4. Prints the tables as Markdown (what BENCHMARKS.md section 4 shows).
#
# perfect-freehand JS: PF_MODULE names the local measurement copy (default
# .bench/pf/perfect-freehand.mjs, git-ignored; never commit it). If it is missing and PF_GIT
# names a git copy of steveruizok/perfect-freehand, it is made from it with
# ../shared/tools/perfect-freehand-js (and checked against the library's 32 test snapshots).
# Without node or the copy, the library's Python port (1.2.0, from PyPI into .bench-venv)
# is timed instead and labelled so: it is 10-20x slower than the JavaScript web apps run.
set -euo pipefail
cd "$(dirname "$0")/.."
sets="${1:-short,session}"
passes="${2:-5}"
rounds="${3:-3}"
harness="${INK_QUALITY_HARNESS:-../shared/tools/ink-quality}"
pftools="${PF_TOOLS:-../shared/tools/perfect-freehand-js}"
pf="${PF_MODULE:-$PWD/.bench/pf/perfect-freehand.mjs}"
export INK_QUALITY_DIR="$PWD/.ink-quality"
data="$INK_QUALITY_DIR/data"
[ -f "$data/session.jsonl" ] || python3 "$harness/gen_strokes.py" >/dev/null
files=()
for set in ${sets//,/ }; do files+=("$data/$set.jsonl"); done

swift build -c release --product ink-replay >/dev/null
bin="$(swift build -c release --show-bin-path)/ink-replay"
before="${BEFORE_BIN:-}"

if [ ! -f "$pf" ] && [ -n "${PF_GIT:-}" ] && command -v node >/dev/null; then
  tests="$(python3 "$pftools/make_local_copy.py" "$PF_GIT" "$(dirname "$pf")" | sed -n 's/.*check_upstream.mjs //p')"
  PF_MODULE="$pf" node "$pftools/check_upstream.mjs" "$tests" | tail -1 | grep -q '^32 passed, 0 failed' ||
    { echo "the perfect-freehand copy does not pass the library's tests" >&2; exit 1; }
fi

log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT
if command -v node >/dev/null && [ -f "$pf" ]; then
  peer="perfect-freehand 1.2.2, JavaScript \`getStroke\` on node $(node --version)"
  for round in $(seq "$rounds"); do
    echo "round $round of $rounds" >&2
    # File by file, so the two measurements of a file are seconds apart.
    for file in "${files[@]}"; do
      "$bin" bench strokes "$file" --passes "$passes" >>"$log/ours.$round"
      PF_MODULE="$pf" node "$pftools/bench_pf.mjs" --runs "$passes" "$file" >>"$log/peer.$round"
      [ -z "$before" ] || "$before" bench strokes "$file" --passes "$passes" >>"$log/before.$round"
    done
  done
else
  # Fallback: the Python port, one round (it is far slower than the JavaScript library).
  peer="perfect-freehand 1.2.0, its Python port (fallback: node or the JS copy is missing)"
  [ -x .bench-venv/bin/python ] || python3 -m venv .bench-venv
  .bench-venv/bin/python -m pip install -q perfect-freehand==1.2.0
  "$bin" bench strokes "${files[@]}" --passes "$passes" >"$log/ours.1"
  [ -z "$before" ] || "$before" bench strokes "${files[@]}" --passes "$passes" >"$log/before.1"
  .bench-venv/bin/python - "$passes" "${files[@]}" >"$log/peer.1" <<'PY'
import json, os, sys, time
from perfect_freehand import get_stroke

passes, files = int(sys.argv[1]), sys.argv[2:]
for path in files:
    with open(path) as f:
        strokes = [[[p[0], p[1], p[3] if len(p) > 3 else 0.5] for p in json.loads(line)] for line in f if line.strip()]
    points = sum(len(s) for s in strokes)
    runs = []
    for _ in range(passes):
        start = time.perf_counter()
        for s in strokes:
            get_stroke(s)
        runs.append(time.perf_counter() - start)
    runs.sort()
    name = os.path.basename(path).removesuffix(".jsonl")
    print(f"RESULT peer=perfect-freehand-py set={name} points={points} ns_per_point={runs[len(runs) // 2] / points * 1e9:.1f}")
PY
fi

callgrind=()
if command -v valgrind >/dev/null && [ "${CALLGRIND:-1}" != 0 ]; then
  for file in "${files[@]}"; do
    set="$(basename "$file" .jsonl)"
    samples="$(python3 -c 'import json,sys; print(sum(len(json.loads(l)) for l in open(sys.argv[1]) if l.strip()))' "$file")"
    for build in now ${before:+before}; do
      exe="$bin"; [ "$build" = now ] || exe="$before"
      valgrind --tool=callgrind --callgrind-out-file="$log/cg.$build.$set" "$exe" bench strokes "$file" --passes 1 >/dev/null 2>&1
      echo "$build $set $(python3 scripts/stroke-callgrind.py "$log/cg.$build.$set" "$samples")" >>"$log/callgrind"
    done
  done
fi

python3 - "$log" "$rounds" "$peer" "$passes" <<'PY'
import glob, os, re, statistics, sys
log, rounds, peer, passes = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def ours(kind):
    rows = {}  # set -> [(append, outline)] per round
    for path in sorted(glob.glob(f"{log}/{kind}.*")):
        for line in open(path):
            parts = line.split()
            if len(parts) == 7 and parts[0].isdigit():
                name = os.path.basename(parts[6]).removesuffix(".jsonl")
                rows.setdefault(name, []).append((float(parts[2]), float(parts[3])))
    return rows

now, before = ours("ours"), ours("before")
peers = {}
for path in sorted(glob.glob(f"{log}/peer.*")):
    for line in open(path):
        if line.startswith("RESULT"):
            fields = dict(kv.split("=", 1) for kv in line.split()[1:])
            peers.setdefault(fields["set"], []).append(float(fields["ns_per_point"]))

med = statistics.median
print(f"Interleaved, {len(next(iter(peers.values()), []))} round(s), each the median of {passes} passes; ns per input point (median over the rounds); ratio = {peer.split(',')[0]} ÷ ours, the median of the rounds' own ratios\n")
print(f"| set | ours: append | ours: append + outline | {peer} | ratio, append | ratio, append + outline |" + (" before: append | before: append + outline |" if before else ""))
print("|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if before else ""))
for name, runs in now.items():
    a = med(r[0] for r in runs); o = med(r[1] for r in runs)
    ps = peers.get(name, [float("nan")])
    p = med(ps)
    ra = med(q / r[0] for r, q in zip(runs, ps)); ro = med(q / r[1] for r, q in zip(runs, ps))
    row = f"| `{name}` | {a:.0f} ns | {o:.0f} ns | {p:.0f} ns | {ra:.2f}× | {ro:.2f}× |"
    if before:
        b = before.get(name, [(float("nan"), float("nan"))])
        row += f" {med(r[0] for r in b):.0f} ns | {med(r[1] for r in b):.0f} ns |"
    print(row)
print("\nPer round (append / append + outline / peer, ns):")
for name, runs in now.items():
    print(f"- `{name}`: " + "; ".join(f"{a:.0f} / {o:.0f} / {p:.0f}" for (a, o), p in zip(runs, peers.get(name, []))))
cg = os.path.join(log, "callgrind")
if os.path.exists(cg):
    rows = {}
    for line in open(cg):
        build, name, _, append, _, outline = line.split()
        rows.setdefault(name, {})[build] = (int(append), int(outline))
    print("\nInstructions per sample (callgrind; `scripts/stroke-callgrind.py`):\n")
    has_before = any("before" in r for r in rows.values())
    print("| set | append | outline | append + outline |" + (" before: append | before: outline | fewer, append + outline |" if has_before else ""))
    print("|---|---:|---:|---:|" + ("---:|---:|---:|" if has_before else ""))
    for name, r in rows.items():
        a, o = r["now"]
        row = f"| `{name}` | {a:,} | {o:,} | {a + o:,} |"
        if "before" in r:
            ba, bo = r["before"]
            row += f" {ba:,} | {bo:,} | {(ba + bo) / (a + o):.2f}× |"
        print(row)
PY
