#!/usr/bin/env bash
# Writes a large, valid session log for scaling and memory measurements (not a fixture):
#
#   scripts/generate-session-log.sh <touches> <output.jsonl> [samples per touch, default 4]
#
# Touches begin 60 ms apart; each is a pencil whose samples come 4 ms apart and which ends
# 30 ms after touch-down. The page's recorded answer arrives 11.5 ms after each touch-down
# (alternately ink and page; before the fourth sample, or after the last when there are
# fewer), and every touch also carries one answer, 20 ms after touch-down, naming a touch
# that never began (delivered as an unknown answer): two recorded answers per touch. Touch
# ids are reused in a cycle of three, as platforms do.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <touches> <output.jsonl> [samples per touch]" >&2; exit 64; }
touches=$1 out=$2 samples=${3:-4}
tmp="$out.partial.$$"
trap 'rm -f "$tmp"' EXIT
awk -v n="$touches" -v k="$samples" 'BEGIN {
  print "{\"format\":\"scratchpad-ink-session\",\"version\":1,\"canvas\":{\"width\":1024,\"height\":768},\"source\":\"scripts/generate-session-log.sh\"}"
  for (i = 0; i < n; i++) {
    t = 1 + i * 0.06; id = i % 3 + 1; x = 100 + (i * 37) % 800; y = 100 + (i * 53) % 500
    printf "{\"kind\":\"touch\",\"t\":%.6f,\"touch\":%d,\"phase\":\"began\",\"tool\":\"pencil\",\"samples\":[{\"t\":%.6f,\"x\":%.2f,\"y\":%.2f,\"force\":0.4}]}\n", t, id, t, x, y
    for (j = 1; j < k; j++) {
      s = t + j * 0.004
      if (j == 3) printf "{\"kind\":\"answer\",\"t\":%.6f,\"touch\":%d,\"verdict\":\"%s\"}\n", t + 0.0115, id, (i % 2 ? "page" : "ink")
      printf "{\"kind\":\"touch\",\"t\":%.6f,\"touch\":%d,\"phase\":\"moved\",\"samples\":[{\"t\":%.6f,\"x\":%.2f,\"y\":%.2f,\"force\":0.4}]}\n", s, id, s, x + j, y + j / 2
    }
    if (k < 4) printf "{\"kind\":\"answer\",\"t\":%.6f,\"touch\":%d,\"verdict\":\"%s\"}\n", t + 0.0115, id, (i % 2 ? "page" : "ink")
    printf "{\"kind\":\"answer\",\"t\":%.6f,\"touch\":9999,\"verdict\":\"ink\"}\n", t + 0.02
    printf "{\"kind\":\"touch\",\"t\":%.6f,\"touch\":%d,\"phase\":\"ended\",\"samples\":[]}\n", t + 0.03, id
  }
}' > "$tmp"
mv "$tmp" "$out"
trap - EXIT
