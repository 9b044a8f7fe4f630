#!/usr/bin/env bash
# Runs libFuzzer targets for N seconds each: scripts/fuzz.sh <target|all> [seconds]
# Targets (Fuzz/):
#   inkml       the InkML, XML and trace readers
#   quickdraw   the streaming Quick, Draw! reader and the session encoder
#   sessionlog  the session log reader, with a write-read round trip
#   wire        the page-message decoder, and the bridge taking what it decoded
#   engine      the engine (InkEngine) driven by bytes decoded into touch
#               events, answers, page messages and time; the ledger and the order of every
#               touch's samples are checked after each step
# InkCore, HitTestBridge, InkRecording and SessionReplay are compiled once with coverage and AddressSanitizer into
# .build-fuzz/lib (rebuilt when a source changes); each target links against them.
# FUZZ_SEED=n makes a run repeatable (CI). Corpora and crashes: .build-fuzz/<target>/{corpus,crash-*}. Exits non-zero on a crash;
# each crash found becomes a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?target: inkml, quickdraw, sessionlog, wire, engine or all}"
seconds="${2:-60}"
if [ "$target" = all ]; then
  for t in inkml quickdraw sessionlog wire engine; do "$0" "$t" "$seconds"; done
  exit 0
fi
case "$target" in
  inkml) seeds=$(find Fixtures/inkml -name '*.inkml') ;;
  quickdraw) seeds=$(find Fuzz/seeds -name 'quickdraw*') ;;
  sessionlog) seeds="$(find Fixtures/strokes -maxdepth 1 -name '*.jsonl') $(find Fuzz/seeds -name 'sessionlog-*')" ;;
  wire) seeds=$(find Fuzz/seeds -name 'wire-*') ;;
  engine) seeds=$(find Fuzz/seeds -name 'engine-*') ;;
  *) echo "unknown target $target" >&2; exit 64 ;;
esac
source="Fuzz/$(case "$target" in inkml) echo InkML;; quickdraw) echo QuickDraw;; sessionlog) echo SessionLog;;
  wire) echo Wire;; engine) echo Engine;; esac)Fuzz.swift"

flags=(-parse-as-library -sanitize=fuzzer,address -O -package-name ScratchpadInk)
lib=.build-fuzz/lib
mkdir -p "$lib"
# The library modules, in dependency order (Package.swift); each is compiled once, instrumented.
modules=(InkCore HitTestBridge InkRecording SessionReplay)
stamp=$(cat $(find "${modules[@]/#/Sources/}" Fuzz/Support -name '*.swift' | sort) | cksum | cut -d' ' -f1)
if [ "$(cat "$lib/stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "== instrumenting ${modules[*]}"
  for module in "${modules[@]}"; do
    extra=()
    [ "$module" = HitTestBridge ] && extra=(Fuzz/Support/*.swift)   # Bundle.module for its page script
    rm -f "$lib/lib$module.a"   # an archive is appended to, not replaced: no stale objects
    swiftc "${flags[@]}" -module-name "$module" -I "$lib" -emit-module -emit-module-path "$lib/$module.swiftmodule" \
      -emit-library -static -o "$lib/lib$module.a" $(find "Sources/$module" -name '*.swift') "${extra[@]}"
  done
  echo "$stamp" > "$lib/stamp"
fi

out=".build-fuzz/$target"
mkdir -p "$out/corpus"
for seed in $seeds; do cp "$seed" "$out/corpus/" 2>/dev/null || true; done
swiftc "${flags[@]}" -module-name "Fuzz_$target" -I "$lib" -L "$lib" -lSessionReplay -lInkRecording -lHitTestBridge -lInkCore -lm "$source" -o "$out/fuzz" 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
cd "$out"
echo "== fuzzing $target for $seconds s"
rm -f crash-* leak-* timeout-* oom-*
set +e
ASAN_OPTIONS=detect_leaks=0 ./fuzz corpus ${FUZZ_SEED:+-seed=$FUZZ_SEED} -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1 > fuzz.log 2>&1
status=$?
set -e
grep -v '^#[0-9]' fuzz.log | tail -n 12
if [ "$status" -ne 0 ]; then
  echo "fuzz target $target failed (exit $status): see $out/fuzz.log and $out/crash-*" >&2
  exit 1
fi
