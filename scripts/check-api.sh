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
modules=(InkCore HitTestBridge InkTesting)
echo "API-breaking changes against $baseline (${modules[*]}):"
# The digester compares package and SPI declarations too; only the baseline's public, non-SPI
# symbols are the public API. Read them from the baseline's own symbol graphs.
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/baseline" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/baseline" "$baseline" >/dev/null 2>&1
# (It may fail on a test-discovery module it cannot extract; the graphs needed are checked below.)
(cd "$work/baseline" && swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1) || true
graphs="$(cd "$work/baseline" && dirname "$(swift build --show-bin-path)")/symbolgraph"
[ -d "$graphs" ] || graphs="$(cd "$work/baseline" && swift build --show-bin-path)/../symbolgraph"
for module in "${modules[@]}"; do
  [ -f "$graphs/$module.symbols.json" ] || { echo "no symbol graph of $module at $baseline ($graphs)" >&2; exit 1; }
done
node scripts/public-symbols.mjs "$graphs" "${modules[@]}" > "$work/public.txt"
echo "the baseline's public symbols: $(wc -l < "$work/public.txt")"

set +e
swift package diagnose-api-breaking-changes "$baseline" --products "${modules[@]}" > "$work/report.txt" 2>&1
status=$?
set -e
if ! grep -q 'API breakage' "$work/report.txt"; then
  cat "$work/report.txt"
  exit "$status"
fi
# Each breakage names its declaration after its kind: "💔 API breakage: func A.b(_:) has been removed".
broken=0
while IFS= read -r line; do
  case "$line" in
    *"API breakage:"*)
      name="$(printf '%s\n' "${line#*API breakage: }" | awk '{print $2}')"
      if grep -qxF -- "$name" "$work/public.txt"; then
        echo "$line"; broken=$((broken + 1))
      else
        echo "  (not public API: package or SPI) ${line#*API breakage: }"
      fi ;;
  esac
done < "$work/report.txt"
echo "public API breakages: $broken"
[ "$broken" -eq 0 ]
