#!/usr/bin/env bash
# Installs what the tests use beyond the Swift toolchain, when it is missing:
#   node      runs the page script's tests (Tests/PageScript) with a DOM stand-in;
#   chromium  the real browser of the end-to-end tests (Tests/ChromiumBridgeTests);
#   WebKitGTK (libwebkit2gtk-4.1-dev), xvfb and xauth: the WebKit oracle and the native
#             GTK front end (Integrations/GTK), whose tests run under xvfb-run;
#   libxtst-dev  XTest, with which the GTK tests drive the real pointer and read the real
#             screen (Integrations/GTK links it);
#   time      GNU time (/usr/bin/time): peak memory of a child, for the memory tests and the
#             hostile sweep;
#   python3   the docs check (scripts/check-docs.sh) reads the docs with it.
# Safe to run again. Without a package manager it says what is missing, and the tests
# that need it report themselves as skipped, by name.
set -uo pipefail
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
browser=""
for name in chromium chromium-browser google-chrome; do
  command -v "$name" >/dev/null 2>&1 && { browser=$name; break; }
done
[ -n "${CHROMIUM:-}" ] && [ -x "${CHROMIUM}" ] && browser=$CHROMIUM
[ -z "$browser" ] && missing+=(chromium)
pkg-config --exists webkit2gtk-4.1 gtk+-3.0 2>/dev/null || missing+=(libwebkit2gtk-4.1-dev pkg-config)
pkg-config --exists xtst 2>/dev/null || missing+=(libxtst-dev)
# GNU time: the memory tests and the hostile sweep read a child's peak memory with it.
[ -x /usr/bin/time ] || missing+=(time)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
command -v xauth >/dev/null 2>&1 || missing+=(xauth)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo -n"
  if command -v apt-get >/dev/null 2>&1; then
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  elif command -v dnf >/dev/null 2>&1; then
    $sudo dnf install -y -q "${missing[@]}"
  fi
fi
if command -v node >/dev/null 2>&1; then
  echo "test tools: node $(node --version)"
else
  echo "test tools: could not install node; the page script's tests will be skipped" >&2
fi
if command -v chromium >/dev/null 2>&1 || [ -n "$browser" ]; then
  echo "test tools: $( (${browser:-chromium} --version) 2>/dev/null | head -1)"
else
  echo "test tools: could not install chromium; the browser tests will be skipped" >&2
fi
if pkg-config --exists webkit2gtk-4.1 gtk+-3.0 xtst 2>/dev/null && command -v xvfb-run >/dev/null 2>&1; then
  echo "test tools: WebKitGTK $(pkg-config --modversion webkit2gtk-4.1), GTK $(pkg-config --modversion gtk+-3.0), xvfb-run"
else
  echo "test tools: could not install WebKitGTK or Xvfb; the WebKit and GTK tests will be skipped" >&2
fi
exit 0
