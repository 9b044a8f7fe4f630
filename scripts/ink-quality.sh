#!/usr/bin/env bash
# Scores the stroke pipeline's smoothing with the shared ink-quality harness.
# Usage: scripts/ink-quality.sh [sets, default session,short] [extra ink-replay smooth options]
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
mkdir -p "$INK_QUALITY_DIR/ours" "$INK_QUALITY_DIR/ours-nodes"
for set in ${sets//,/ }; do
  "$bin" smooth "$INK_QUALITY_DIR/data/$set.jsonl" -o "$INK_QUALITY_DIR/ours/$set.jsonl" "$@"
  "$bin" smooth "$INK_QUALITY_DIR/data/$set.jsonl" -o "$INK_QUALITY_DIR/ours-nodes/$set.jsonl" --no-midpoints "$@"
done
python3 "$harness/quality.py" --no-tune --sets "$sets" \
  --extra "ScratchpadInk=$INK_QUALITY_DIR/ours/{set}.jsonl" \
  --extra "ScratchpadInk nodes=$INK_QUALITY_DIR/ours-nodes/{set}.jsonl"
