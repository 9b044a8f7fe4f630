#!/usr/bin/env bash
# Regenerates Fixtures/strokes: the synthetic sessions and the Quick, Draw! conversions.
# Usage: scripts/make-fixtures.sh [path to the shared data folder]
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-../shared/data}"
swift build --product ink-replay
bin="$(swift build --show-bin-path)/ink-replay"
"$bin" fixtures Fixtures/strokes
for word in airplane alarm_clock bee train; do
  "$bin" convert "$data/quickdraw/small_raw_$word.json" -o Fixtures/strokes/quickdraw --limit 6
done
"$bin" verify Fixtures/strokes
