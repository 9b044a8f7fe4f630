#!/usr/bin/env bash
# Builds the DocC documentation of InkCore, HitTestBridge, InkTesting, InkRecording, SessionReplay and ChromiumBridge without a package dependency
# (no DocC plugin): SwiftPM's built-in symbol-graph dump, then `docc convert`. Fails when a
# public symbol has no documentation comment, or when DocC warns (broken links and the like).
# Usage: scripts/build-docs.sh [output directory, default .build/docs]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/docs}"
graphs=".build/symbol-graphs"
rm -rf "$graphs" && mkdir -p "$graphs" "$out"
swift package dump-symbol-graph --minimum-access-level public >/dev/null
src="$(swift build --show-bin-path)/../symbolgraph"
[ -d "$src" ] || src="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
node scripts/check-doc-coverage.mjs "$src" InkCore HitTestBridge InkTesting InkRecording SessionReplay ChromiumBridge
# The surface an app embeds: the public types of InkCore and HitTestBridge (SPI and package left out).
node scripts/public-types.mjs "$src" InkCore HitTestBridge
for module in InkCore HitTestBridge InkTesting InkRecording SessionReplay ChromiumBridge; do
  mkdir -p "$graphs/$module"
  cp "$src/$module".symbols.json "$src/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || cp "$src/$module".symbols.json "$graphs/$module/"
  docc convert "Sources/$module/$module.docc" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.scratchpadink.$module" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --output-path "$out/$module.doccarchive" --warnings-as-errors >"$graphs/$module.log" 2>&1 \
    || { cat "$graphs/$module.log"; echo "docs: DocC failed for $module" >&2; exit 1; }
  echo "docs: $out/$module.doccarchive"
done
