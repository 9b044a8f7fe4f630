#!/usr/bin/env bash
# Runs a libFuzzer target for N seconds: scripts/fuzz.sh <target> [seconds]
# Targets: inkml (the InkML, XML and trace readers), quickdraw (the streaming Quick, Draw!
# reader and the encoder), sessionlog (the session log reader, with a write-read round trip). The target is compiled with InkCore's
# sources into one fuzzing binary (no package target needed). Seeds: Fixtures/inkml.
# Crashes are written to .build-fuzz/<target>/crash-*; each one found becomes a test.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?target: inkml, quickdraw or sessionlog}"
seconds="${2:-60}"
out=".build-fuzz/$target"
mkdir -p "$out/corpus"
case "$target" in
  inkml) source="Fuzz/InkMLFuzz.swift"; seeds=$(find Fixtures/inkml -name '*.inkml') ;;
  quickdraw) source="Fuzz/QuickDrawFuzz.swift"; seeds=$(find Fuzz/seeds -name 'quickdraw*') ;;
  sessionlog) source="Fuzz/SessionLogFuzz.swift"; seeds=$(find Fixtures/strokes -maxdepth 1 -name '*.jsonl') ;;
  *) echo "unknown target $target" >&2; exit 64 ;;
esac
for seed in $seeds; do cp "$seed" "$out/corpus/" 2>/dev/null || true; done
swiftc -parse-as-library -sanitize=fuzzer,address -O -module-name FuzzInkCore -package-name ScratchpadInk \
  $(find Sources/InkCore -name '*.swift') "$source" -o "$out/fuzz"
cd "$out"
ASAN_OPTIONS=detect_leaks=0 ./fuzz corpus -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1
