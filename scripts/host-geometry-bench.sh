#!/usr/bin/env bash
# Times `ink-replay host` with and without --geometry on one long pencil stroke, per touch
# line, for strokes of 1,000, 10,000 and 50,000 samples (a 240 Hz scribble, one sample per
# line, answered as ink after 11.5 ms): the cost per line must not grow with the stroke.
# Usage: scripts/host-geometry-bench.sh [lengths, default 1000,10000,50000]
# Logs go to .bench-logs/ (git-ignored); release build, or INK_REPLAY=<binary> to time another.
set -euo pipefail
cd "$(dirname "$0")/.."
lengths="${1:-1000,10000,50000}"
if [ -n "${INK_REPLAY:-}" ]; then
  bin="$INK_REPLAY"   # another build to compare, e.g. an older commit's
else
  swift build -c release --product ink-replay >/dev/null
  bin="$(swift build -c release --show-bin-path)/ink-replay"
fi
mkdir -p .bench-logs
printf '%8s  %14s  %14s  %6s\n' samples "host ns/line" "--geometry" ratio
for n in ${lengths//,/ }; do
  log=".bench-logs/host-stroke-$n.jsonl"
  if [ ! -f "$log" ]; then
    awk -v n="$n" 'BEGIN {
      print "{\"format\":\"scratchpad-ink-session\",\"version\":1,\"canvas\":{\"width\":1024,\"height\":768},\"source\":\"scripts/host-geometry-bench.sh\"}"
      for (i = 0; i < n; i++) {
        s = i / 240; t = 1 + s
        x = 100 + 40 * s % 800 + 20 * cos(9 * s); y = 100 + 25 * sin(13 * s)
        if (i == 3) printf "{\"kind\":\"answer\",\"t\":%.6f,\"touch\":1,\"verdict\":\"ink\"}\n", 1.0115
        printf "{\"kind\":\"touch\",\"t\":%.6f,\"touch\":1,\"phase\":\"%s\",\"tool\":\"pencil\",\"samples\":[{\"t\":%.6f,\"x\":%.3f,\"y\":%.3f,\"force\":0.4}]}\n", t, (i == 0 ? "began" : "moved"), t, x, y
      }
      printf "{\"kind\":\"touch\",\"t\":%.6f,\"touch\":1,\"phase\":\"ended\",\"samples\":[]}\n", 1 + n / 240
    }' > "$log.partial" && mv "$log.partial" "$log"
  fi
  lines=$(wc -l < "$log")
  time_ns() { local start end; start=$(date +%s%N); "$bin" host "$@" < "$log" > /dev/null; end=$(date +%s%N); echo $((end - start)); }
  plain=$(time_ns); geometry=$(time_ns --geometry)
  awk -v n="$n" -v l="$lines" -v p="$plain" -v g="$geometry" 'BEGIN { printf "%8d  %14.0f  %14.0f  %6.2f\n", n, p / l, g / l, g / p }'
done
