#!/usr/bin/env bash
# Installs what the tests use beyond the Swift toolchain, when it is missing:
#   node (runs the page script's tests, Tests/PageScript, with a DOM stand-in).
# Safe to run again. Without a package manager it says what is missing, and the tests
# that need it report themselves as skipped.
set -uo pipefail
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
[ ${#missing[@]} -eq 0 ] && { echo "test tools: node $(node --version)"; exit 0; }
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo -n"
if command -v apt-get >/dev/null 2>&1; then
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
elif command -v dnf >/dev/null 2>&1; then
  $sudo dnf install -y -q "${missing[@]}"
fi
if command -v node >/dev/null 2>&1; then
  echo "test tools: installed node $(node --version)"
else
  echo "test tools: could not install ${missing[*]}; the page script's tests will be skipped" >&2
fi
exit 0
