#!/usr/bin/env bash
# Scores the stroke pipeline with the shared ink-quality harness (../shared/tools/ink-quality).
# Usage: scripts/ink-quality.sh [sets, default session,short] [extra ink-replay smooth options]
# Rows: the finished ink (settled nodes and Catmull-Rom midpoints), its nodes only, the live
# tip (the causal filter, what is drawn as each sample arrives), the predicted tip 8 and 16 ms
# ahead, and for comparison the last raw sample shown 8 and 16 ms later.
# Needs python3 with numpy. Data and results go to .ink-quality/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
sets="${1:-session,short}"
shift || true
harness="${INK_QUALITY_HARNESS:-../shared/tools/ink-quality}"
export INK_QUALITY_DIR="$PWD/.ink-quality"
[ -f "$INK_QUALITY_DIR/data/session.jsonl" ] || python3 "$harness/gen_strokes.py"
swift build -c release --product ink-replay >/dev/null
bin="$(swift build -c release --show-bin-path)/ink-replay"
out="$INK_QUALITY_DIR/ours"
mkdir -p "$out"
for set in ${sets//,/ }; do
  data="$INK_QUALITY_DIR/data/$set.jsonl"
  "$bin" smooth "$data" -o "$out/$set.ink.jsonl" "$@" &
  "$bin" smooth "$data" -o "$out/$set.nodes.jsonl" --no-midpoints "$@" &
  "$bin" smooth "$data" -o "$out/$set.live.jsonl" --tip 0 "$@" &
  "$bin" smooth "$data" -o "$out/$set.tip8.jsonl" --tip 8 "$@" &
  "$bin" smooth "$data" -o "$out/$set.tip16.jsonl" --tip 16 "$@" &
  python3 - "$data" "$out/$set" <<'PY' &
import json, sys
source, prefix = sys.argv[1], sys.argv[2]
for horizon in (8, 16):
    with open(source) as f, open(f"{prefix}.last{horizon}.jsonl", "w") as g:
        for line in f:
            g.write(json.dumps([[p[0], p[1], p[2] + horizon] for p in json.loads(line)]) + "\n")
PY
  wait
done
python3 "$harness/quality.py" --no-tune --sets "$sets" \
  --extra "ScratchpadInk finished ink=$out/{set}.ink.jsonl" \
  --extra "ScratchpadInk finished nodes=$out/{set}.nodes.jsonl" \
  --extra "ScratchpadInk live tip=$out/{set}.live.jsonl" \
  --extra "ScratchpadInk predicted tip, 8 ms=$out/{set}.tip8.jsonl" \
  --extra "ScratchpadInk predicted tip, 16 ms=$out/{set}.tip16.jsonl" \
  --extra "last raw sample, shown 8 ms later=$out/{set}.last8.jsonl" \
  --extra "last raw sample, shown 16 ms later=$out/{set}.last16.jsonl"
