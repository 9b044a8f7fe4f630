#!/usr/bin/env bash
# Regenerates Fixtures/strokes: the synthetic sessions, the real-ink corpus converted from
# Fixtures/inkml (InkML copied from the shared data with its licences) and from the shared
# Quick, Draw! files. The output is byte-identical from run to run.
# Usage: scripts/make-fixtures.sh [path to the shared data folder]
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-../shared/data}"
swift build --product ink-replay
bin="$(swift build --show-bin-path)/ink-replay"
real=Fixtures/strokes/real
layouts=Fixtures/layouts
ink=Fixtures/inkml

"$bin" fixtures Fixtures/strokes
rm -rf "$real/myscript" "$real/wacom" "$real/bdalab" "$real/quickdraw"/*.jsonl "$real/quickdraw-drag-blocks"

myscript="MyScript iinkTS test data, Apache-2.0"
wacom="Wacom Universal Ink Library samples, Apache-2.0"
bdalab="BDALab handwriting-sample, MIT"

# Handwritten math under the answer-field page; text under the number line; diagrams and
# drawings over draggable blocks; the long, paused sessions on an empty page.
"$bin" convert -o "$real/myscript" --layout "$layouts/answer-field.json" --source "$myscript" \
  "$ink/myscript/sum.inkml" "$ink/myscript/equation.inkml" "$ink/myscript/1943.inkml" "$ink/myscript/number-5.inkml" \
  "$ink/myscript/math_context_menu._sqrt_5.inkml" "$ink/myscript/math_variables_a+b=.inkml"
"$bin" convert -o "$real/myscript" --layout "$layouts/number-line.json" --source "$myscript" \
  "$ink/myscript/helloMultipleStrokes.inkml" "$ink/myscript/threeScratchOut.inkml" "$ink/myscript/leçon.inkml"
"$bin" convert -o "$real/myscript" --layout "$layouts/drag-blocks.json" --source "$myscript" \
  "$ink/myscript/diagram-pointers-1.inkml"
"$bin" convert -o "$real/myscript" --source "$myscript" \
  "$ink/myscript/playbackDemo.inkml" "$ink/myscript/count-to-50-pointers.inkml"
"$bin" convert -o "$real/wacom" --layout "$layouts/drag-blocks.json" --source "$wacom" "$ink/wacom/ink.inkml"
"$bin" convert -o "$real/wacom" --layout "$layouts/answer-field.json" --source "$wacom" "$ink/wacom/6_Different_Input_Providers.inkml"
"$bin" convert -o "$real/bdalab" --layout "$layouts/number-line.json" --source "$bdalab" "$ink/bdalab/signal.inkml"
"$bin" convert -o "$real/bdalab" --layout "$layouts/drag-blocks.json" --source "$bdalab" \
  "$ink/bdalab/jack_18-07-2014_M_0006_Doe_12-10-2020.inkml"

for word in airplane alarm_clock bee train; do
  "$bin" convert "$data/quickdraw/small_raw_$word.json" -o "$real/quickdraw" --limit 6
  "$bin" convert "$data/quickdraw/small_raw_$word.json" -o "$real/quickdraw-drag-blocks" --limit 2 \
    --layout "$layouts/drag-blocks.json"
done
for dir in myscript wacom bdalab; do
  cp "$ink/$dir"/LICENSE-* "$ink/$dir"/ATTRIBUTION-origin.txt "$real/$dir/"
done
cp "$real/quickdraw"/LICENSE-* "$real/quickdraw"/ATTRIBUTION*.txt "$real/quickdraw-drag-blocks/"
"$bin" verify Fixtures/strokes
