#!/usr/bin/env bash
# Writes a large synthetic InkML document (for measuring the importer's memory):
#   scripts/generate-large-inkml.sh <megabytes> <output.inkml>
# Strokes of 200 points at 240 Hz with X, Y, T and F, first differences for X and Y.
set -euo pipefail
megabytes="${1:?megabytes}"
output="${2:?output file}"
awk -v limit="$((megabytes * 1024 * 1024))" 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<ink xmlns=\"http://www.w3.org/2003/InkML\"><definitions><context xml:id=\"c\"><traceFormat>"
  print "<channel name=\"X\" units=\"px\"/><channel name=\"Y\" units=\"px\"/><channel name=\"T\" units=\"ms\"/><channel name=\"F\" max=\"1\"/>"
  print "</traceFormat></context></definitions>"
  bytes = 300; t = 0; s = 0
  while (bytes < limit) {
    line = "<trace contextRef=\"#c\">" (100 + s % 700) " " (100 + s % 500) " " t " 0.5"
    for (p = 1; p < 200; p++) { t += 4; line = line ",'\''" (p % 7 - 3) "'\''" (p % 5 - 2) " " t " " (0.3 + (p % 50) / 100) }
    line = line "</trace>"
    print line
    bytes += length(line) + 1; t += 300; s++
  }
  print "</ink>"
}' > "$output"
