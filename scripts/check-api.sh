#!/usr/bin/env bash
# Diagnoses API-breaking changes of the libraries an app depends on (InkCore, HitTestBridge,
# InkTesting, InkUIKit is type-checked elsewhere) against the last release, as swift-nio's CI
# does: `swift package diagnose-api-breaking-changes <tag>`. The baseline is the newest tag
# that looks like a version (or the tree-ish given as $1). SPI (`@_spi`) is not public API
# and is not compared.
#
# Usage: scripts/check-api.sh [baseline]
# Exit: 0 when nothing public broke (or there is no release to compare with yet, which it
# says on stderr, naming what it did not check), 1 when something broke.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline="${1:-}"
if [ -z "$baseline" ]; then
  baseline="$(git tag --list '[0-9]*.[0-9]*.[0-9]*' --sort=-v:refname | head -n 1)"
fi
if [ -z "$baseline" ]; then
  echo "API check NOT RUN: no release is tagged yet (CHANGELOG.md: the first will be 0.9.0)." \
       "Nothing was compared; from that tag on, every change to the public API of InkCore," \
       "HitTestBridge and InkTesting is diagnosed here." >&2
  exit 0
fi
echo "API-breaking changes against $baseline (InkCore, HitTestBridge, InkTesting):"
swift package diagnose-api-breaking-changes "$baseline" --products InkCore HitTestBridge InkTesting
