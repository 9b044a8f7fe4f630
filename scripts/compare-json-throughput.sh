#!/usr/bin/env bash
# How fast one core verifies a session log, beside how fast Python's C `json` module merely
# parses the same file line by line (`for line in f: json.loads(line)`, binary mode), in ONE
# run: the two are interleaved pass by pass, so the machine's load falls on both alike.
#
#   scripts/compare-json-throughput.sh [--log FILE] [--megabytes N] [--passes N]
#
# Without --log it makes a converted log (the shape of recorded ink: one pencil sample per
# touch line, 240 Hz, answers synthesized): scripts/generate-large-inkml.sh N (default 31)
# MB of InkML, then `ink-replay convert`, about 200 MB of JSON Lines, kept in .bench-logs/
# (git-ignored) and reused. `verify` runs with `--jobs 1` when its help mentions --jobs (one
# core either way). Each pass is timed by GNU time (/usr/bin/time -v): elapsed and CPU
# (user + system) seconds and peak resident memory. It prints every pass, then the medians
# and the ratio; the ratio is of CPU seconds (what one core does; elapsed time on a shared
# machine also counts waiting for the CPU), and the elapsed ratio is printed beside it.
# The release build is used, or INK_REPLAY=<binary> to measure another (an older commit's).
set -euo pipefail
cd "$(dirname "$0")/.."
log="" megabytes=31 passes=5
while [ $# -gt 0 ]; do
  case "$1" in
    --log) log="$2"; shift 2 ;;
    --megabytes) megabytes="$2"; shift 2 ;;
    --passes) passes="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (scripts/install-test-tools.sh)" >&2; exit 69; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 69; }
if [ -n "${INK_REPLAY:-}" ]; then
  bin="$INK_REPLAY"
else
  swift build -c release --product ink-replay >/dev/null
  bin="$(swift build -c release --show-bin-path)/ink-replay"
fi
if [ -z "$log" ]; then
  mkdir -p .bench-logs
  log=".bench-logs/converted-$megabytes.jsonl"
  if [ ! -f "$log" ]; then
    scripts/generate-large-inkml.sh "$megabytes" ".bench-logs/large-$megabytes.inkml"
    rm -rf ".bench-logs/convert-$megabytes"
    "$bin" convert ".bench-logs/large-$megabytes.inkml" -o ".bench-logs/convert-$megabytes" --no-progress >/dev/null
    mv ".bench-logs/convert-$megabytes/large-$megabytes.jsonl" "$log"
    rm -rf ".bench-logs/convert-$megabytes" ".bench-logs/large-$megabytes.inkml"
  fi
fi
jobs=()
if "$bin" help verify 2>&1 | grep -q -- '--jobs'; then jobs=(--jobs 1); fi
bytes=$(wc -c < "$log")
lines=$(wc -l < "$log")
python_parse='import json, sys
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)'
# One measured run: prints "elapsed cpu peak_kib exit".
measure() {
  local report status
  report=$(mktemp)
  status=0
  /usr/bin/time -v -o "$report" "$@" >/dev/null 2>&1 || status=$?
  awk -F': ' -v status="$status" '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); e = 0; for (i = 1; i <= n; i++) e = e * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
    END { printf "%.2f %.2f %d %d\n", e, u + s, m, status }' "$report"
  rm -f "$report"
}
echo "log: $log ($bytes bytes, $lines lines)"
echo "ink-replay: $bin verify ${jobs[*]}"
echo "python: $(python3 --version 2>&1), json.loads per line (C scanner)"
printf '%-6s %-12s %9s %9s %10s\n' pass tool elapsed_s cpu_s peak_MB
py=() ir=()
for pass in $(seq 1 "$passes"); do
  read -r e c m s <<<"$(measure python3 -c "$python_parse" "$log")"
  [ "$s" = 0 ] || { echo "python failed on $log (exit $s)" >&2; exit 1; }
  py+=("$e $c $m"); printf '%-6s %-12s %9s %9s %10.1f\n' "$pass" python-json "$e" "$c" "$(echo "$m / 1024" | bc -l)"
  read -r e c m s <<<"$(measure "$bin" verify "${jobs[@]}" --no-progress "$log")"
  [ "$s" = 0 ] || { echo "ink-replay verify failed on $log (exit $s)" >&2; exit 1; }
  ir+=("$e $c $m"); printf '%-6s %-12s %9s %9s %10.1f\n' "$pass" ink-verify "$e" "$c" "$(echo "$m / 1024" | bc -l)"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column() { local k=$1; shift; printf '%s\n' "$@" | awk -v k="$k" '{ print $k }' | median; }
pe=$(column 1 "${py[@]}") pc=$(column 2 "${py[@]}") pm=$(column 3 "${py[@]}")
ie=$(column 1 "${ir[@]}") ic=$(column 2 "${ir[@]}") im=$(column 3 "${ir[@]}")
echo
echo "medians of $passes passes:"
awk -v b="$bytes" -v pe="$pe" -v pc="$pc" -v pm="$pm" -v ie="$ie" -v ic="$ic" -v im="$im" 'BEGIN {
  printf "| | elapsed (s) | CPU (s) | MB/s (CPU) | peak RSS (MB) |\n|---|---:|---:|---:|---:|\n"
  printf "| Python json.loads per line | %.2f | %.2f | %.1f | %.1f |\n", pe, pc, b / 1e6 / pc, pm / 1024
  printf "| ink-replay verify, one core | %.2f | %.2f | %.1f | %.1f |\n", ie, ic, b / 1e6 / ic, im / 1024
  printf "\nverify / Python throughput: %.2fx (CPU seconds), %.2fx (elapsed)\n", pc / ic, pe / ie
}'
