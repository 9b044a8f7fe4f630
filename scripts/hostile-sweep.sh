#!/usr/bin/env bash
# The hostile sweep (run by .ci/run): every ink-replay subcommand over a generated set of
# hostile inputs, each under a time limit, asserting what a user who trusts the tool with
# their only copy of a recording expects:
#   - it ends (no hang: each run is killed after $SWEEP_SECONDS, default 30, and that fails),
#   - it does not crash (exit code below 128; usage errors are 64, refusals 1),
#   - it modifies no input (every file of the inputs is hashed before and after),
#   - its peak memory stays under $SWEEP_MAX_MB (default 400 MB; /usr/bin/time -f %M),
#   - an output that names an input is refused (non-zero exit), the input untouched,
#   - a write that fails (a full disk through /dev/full, `ulimit -f`) or an output that names
#     an input (standard input's file, a log of another shard) exits non-zero with a message
#     naming the target,
#   - no raw ESC byte on standard output or standard error (names holding terminal escape
#     sequences are printed escaped), and where a run states it, the exact exit status
#     (1 for a refusal, 64 for a usage error) and a phrase on standard error.
#   - a crafted report or a recording whose header lifts the engine's limits is refused:
#     exit 1 with a message on standard error.
#   - a recording's header cannot switch its checks off, no option turns one off in silence,
#     a refused line is never counted identical (issue 53): each edit exits as stated, naming
#     its line.
#   - (issue 53) memory stays flat after a long line (host under ulimit -v); threads and file
#     descriptors the system refuses (ulimit -v, -u, -n) make a smaller pool or an error,
#     never a hang; a snapshot the engine takes is recorded and verifies; of two recorders
#     to one path, one wins and the other exits 1 saying so.
#
#   scripts/hostile-sweep.sh [path/to/ink-replay]     (default: the debug build's)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-"$(swift build --show-bin-path)/ink-replay"}
[ -x "$bin" ] || { echo "hostile-sweep: no ink-replay at $bin (swift build --product ink-replay)" >&2; exit 2; }
seconds=${SWEEP_SECONDS:-30}
max_kb=$(( ${SWEEP_MAX_MB:-400} * 1024 ))
work=$(mktemp -d "${TMPDIR:-/tmp}/hostile-sweep.XXXXXX")
trap 'rm -rf "$work"' EXIT
in="$work/in" out="$work/out"
mkdir -p "$in/corpus" "$in/dir" "$out"
header='{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}'

# --- the hostile inputs ---------------------------------------------------------------
# A first-ink latency beyond Int64 microseconds: the event at 1e13 s, its sample at 0.
{ echo "$header"
  echo '{"kind":"touch","t":1e13,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":0,"x":10,"y":10}]}'
  echo '{"kind":"touch","t":1e13,"touch":1,"phase":"ended","samples":[{"t":1,"x":12,"y":10}]}'; } > "$in/latency-1e13.jsonl"
# Times at 1e300 s.
{ echo "$header"
  echo '{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":1,"x":10,"y":10}]}'
  echo '{"kind":"touch","t":1e300,"touch":1,"phase":"ended","samples":[{"t":1e300,"x":12,"y":10}]}'; } > "$in/time-1e300.jsonl"
# Coordinates and sizes at the largest doubles.
{ echo '{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1.7e308,"height":1.7e308}}'
  echo '{"kind":"regions","t":0,"generation":1,"max_age":30,"regions":[{"x":0,"y":0,"width":1.7e308,"height":1.7e308}]}'
  echo '{"kind":"touch","t":1,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":1,"x":1.7e308,"y":-1.7e308}]}'
  echo '{"kind":"touch","t":1.5,"touch":1,"phase":"moved","samples":[{"t":1.5,"x":-1.7e308,"y":1.7e308}]}'
  echo '{"kind":"touch","t":2,"touch":1,"phase":"ended","samples":[{"t":2,"x":1e300,"y":1e300}]}'; } > "$in/coordinates-huge.jsonl"
# Touches that begin and never end, each with a new id.
awk -v h="$header" 'BEGIN { print h; for (i = 0; i < 20000; i++) { t = 1 + i * 0.01
  printf "{\"kind\":\"touch\",\"t\":%.4f,\"touch\":%d,\"phase\":\"began\",\"tool\":\"pencil\",\"samples\":[{\"t\":%.4f,\"x\":%d,\"y\":%d}]}\n", t, i + 1, t, 100 + i % 800, 100 + i % 500 } }' \
  > "$in/never-ending.jsonl"
# The same, with recorded answers whose touches never come back.
awk -v h="$header" 'BEGIN { print h; for (i = 0; i < 20000; i++) { t = 1 + i * 0.01
  printf "{\"kind\":\"touch\",\"t\":%.4f,\"touch\":%d,\"phase\":\"began\",\"tool\":\"pencil\",\"samples\":[{\"t\":%.4f,\"x\":%d,\"y\":%d}]}\n", t, i + 1, t, 100 + i % 800, 100 + i % 500
  printf "{\"kind\":\"answer\",\"t\":%.4f,\"touch\":%d,\"verdict\":\"ink\"}\n", t + 0.002, i + 1
  printf "{\"kind\":\"touch\",\"t\":%.4f,\"touch\":%d,\"phase\":\"ended\",\"samples\":[]}\n", t + 0.004, i + 1 } }' \
  > "$in/ids-never-repeat.jsonl"
# InkML traces joined by continuation: five of 40,000 points make one stroke.
{ echo '<ink xmlns="http://www.w3.org/2003/InkML"><traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat>'
  for k in 1 2 3 4 5; do
    case $k in 1) attrs='continuation="begin"';; 5) attrs="continuation=\"end\" priorRef=\"#t$((k - 1))\"";;
               *) attrs="continuation=\"middle\" priorRef=\"#t$((k - 1))\"";; esac
    printf '<trace xml:id="t%d" %s>' "$k" "$attrs"
    awk -v k="$k" 'BEGIN { for (i = 0; i < 40000; i++) { n = (k - 1) * 40000 + i; printf "%s%d %d %d", (i ? "," : ""), n % 1000, n % 700, n } }'
    echo '</trace>'
  done
  echo '</ink>'; } > "$in/joined.inkml"
# Strokes for smooth and bench whose geometry overflows.
echo '[[1,1,0],[2,2,8]]' > "$in/strokes.jsonl"
echo '[[1e308,0,0],[-1e308,5,10],[3,4,20]]' >> "$in/strokes.jsonl"
# A corpus holding non-regular files named like logs.
cp Fixtures/strokes/decimal-point.jsonl "$in/corpus/ok.jsonl"
mkfifo "$in/corpus/fifo.jsonl"
ln -s /dev/zero "$in/corpus/zero.jsonl"
# Outputs that name an input: the same path, through a detour, a hard link, a symbolic link.
cp Fixtures/strokes/decimal-point.jsonl "$in/s.jsonl"
mkdir -p "$in/sub"
ln "$in/s.jsonl" "$in/hard.jsonl"
ln -s s.jsonl "$in/soft.jsonl"
cp Fixtures/strokes/decimal-point.jsonl "$in/dir/plain.jsonl"
# Names that are not text (issue 40): a truncated log named with a byte that is not UTF-8,
# names holding terminal escape sequences (clear screen, window title), files and
# directories, and a symbolic link that leads to itself.
esc=$'esc\e]0;OWNED\a\e[2J'
mkdir -p "$in/names/dir-$esc"$'\xfe' "$in/names-flat"
head -c 300 Fixtures/strokes/decimal-point.jsonl > "$in/names/"$'bad\xff.jsonl'
cp Fixtures/strokes/decimal-point.jsonl "$in/names/$esc.jsonl"
cp Fixtures/strokes/decimal-point.jsonl "$in/names/dir-$esc"$'\xfe/inner.jsonl'
ln -s loop.jsonl "$in/names/loop.jsonl"
cp Fixtures/strokes/decimal-point.jsonl "$in/names-flat/$esc"$'\xff.jsonl'
cp "$(find Fixtures/inkml -name '*.inkml' | sort | head -1)" "$in/names-flat/$esc.inkml"
cp "$in/strokes.jsonl" "$in/names-flat/strokes-$esc.jsonl"
printf '%s' '{"sessions":2,"touches":0,"samples":0,"inked":0,"released":0,"cancelled":0,"refused":0,"dropped":0,"recordings":1,"identical":0,"verified":false,"failed_sessions":1,"failures":[{"file":"x\u001b[2J.jsonl","line":1,"message":"m\u001b]0;T\u0007","session":0}],"notes":[{"file":"n\u001b[2J.jsonl","message":"note\u001b[2J\u001b]0;T\u0007","session":1}]}' \
  > "$in/names-flat/report-$esc.json"
# The fast number reader's clamped exponent: 0. + 99,999 zeros + 1e1000000 is 1e900000, out
# of range; it was read as 1.0.
{ echo "$header"
  printf '{"kind":"touch","t":0,"touch":1,"phase":"began","samples":[{"t":0,"x":0.%s1e1000000,"y":1}]}\n' "$(head -c 99999 /dev/zero | tr '\0' 0)"
  echo '{"kind":"touch","t":0.1,"touch":1,"phase":"ended","samples":[]}'; } > "$in/clamped-exponent.jsonl"
# A corpus cut into two shards: a, b | c, d.
mkdir -p "$in/shard"
for name in a b c d; do cp Fixtures/strokes/decimal-point.jsonl "$in/shard/$name.jsonl"; done

# Crafted merge-reports inputs (issue 40): counts that sized a loop or an allocation before
# they were checked, and reports that contradict themselves.
report() {  # report SESSIONS TOUCHES VERIFIED FAILED [SHARD_JSON]
  printf '{"sessions":%s,"touches":%s,"samples":0,"inked":0,"released":0,"cancelled":0,"refused":0,"dropped":0,"recordings":0,"identical":0,"verified":%s,"failed_sessions":%s,"failures":[],"notes":[]%s}\n' \
    "$1" "$2" "$3" "$4" "${5:+,\"shard\":$5}"
}
mkdir -p "$in/reports/overflow"
report 0 0 true 0 '{"index":0,"count":0,"sessions_total":0,"options":"","files":[]}' > "$in/reports/shard-0-of-0.json"
report 0 0 true 0 '{"index":1,"count":9000000000000000,"sessions_total":0,"options":"","files":[]}' > "$in/reports/shard-1-of-9e15.json"
report 0 0 true 0 '{"index":1,"count":100000,"sessions_total":0,"options":"","files":[]}' > "$in/reports/shard-1-of-100000.json"
report 9000000000000000 0 true 0 '{"index":1,"count":1,"sessions_total":9000000000000000,"options":"","files":[]}' > "$in/reports/sessions-9e15.json"
report 1 0 false 0 > "$in/reports/unverified-0-failed.json"
report 9000000000000000 0 true 0 > "$in/reports/unsharded-9e15.json"   # no shard: lists no sessions (it was accepted)
for k in $(seq 1 1025); do
  report 0 9000000000000000 true 0 "{\"index\":$k,\"count\":1025,\"sessions_total\":0,\"options\":\"\",\"files\":[]}" > "$in/reports/overflow/$k.json"
done
# Recordings whose header lifts the engine's own limits, with 20,000 touches that never end.
recording() {  # recording CONFIGURATION: the recorder's configuration block's fields
  awk -v h='{"format":"scratchpad-ink-session","version":2,"canvas":{"width":1024,"height":768},"recorder":{"engine":"1.0","configuration":{'"$1"'}}}' \
    'BEGIN { print h; for (i = 0; i < 20000; i++) { t = 1 + i * 0.01
      printf "{\"kind\":\"touch\",\"t\":%.4f,\"touch\":%d,\"phase\":\"began\",\"tool\":\"pencil\",\"samples\":[{\"t\":%.4f,\"x\":%d,\"y\":%d}]}\n", t, i + 1, t, 100 + i % 800, 100 + i % 500 } }'
}
recording '"limits":{"active_touches":2147483647}' > "$in/lifted-active-touches.jsonl"
recording '"limits":{"round_trips_in_flight":2147483647,"queued_samples_per_touch":2147483647}' > "$in/lifted-round-trips.jsonl"
recording '"decision_timeout":1e300' > "$in/lifted-timeout.jsonl"
recording '"decision_timeout":3600,"limits":{"active_touches":64,"round_trips_in_flight":256,"queued_samples_per_touch":8192}' > "$in/at-maximum.jsonl"
# At the maximums, what an input can make the engine hold: 64 touches down, never decided,
# each queuing 8,192 samples (lines of 512).
awk 'BEGIN { print "{\"format\":\"scratchpad-ink-session\",\"version\":2,\"canvas\":{\"width\":1024,\"height\":768},\"recorder\":{\"engine\":\"1.0\",\"configuration\":{\"decision_timeout\":3600,\"region_cache\":false,\"limits\":{\"active_touches\":64,\"queued_samples_per_touch\":8192}}}}"
  t = 1; for (i = 0; i < 64; i++) printf "{\"kind\":\"touch\",\"t\":%.5f,\"touch\":%d,\"phase\":\"began\",\"tool\":\"pencil\",\"samples\":[{\"t\":%.5f,\"x\":%d,\"y\":100}]}\n", t, i + 1, t, 100 + i
  for (c = 0; c < 16; c++) for (i = 0; i < 64; i++) { t += 0.00001; line = ""
    for (j = 0; j < 512; j++) line = line (j ? "," : "") sprintf("{\"t\":%.5f,\"x\":%d,\"y\":%d}", t, 100 + i, 100 + j % 300)
    printf "{\"kind\":\"touch\",\"t\":%.5f,\"touch\":%d,\"phase\":\"moved\",\"samples\":[%s]}\n", t, i + 1, line } }' > "$in/queues-at-maximum.jsonl"

# Recordings whose header, options or lines claim less than they hold (issue 53, cases 5-8).
# A genuine recording of a fixture; its variants are made with the chain computed again where
# the variant needs it (anyone can: the chain is not a signature).
rechain() {  # rechain IN OUT: each line's chain as a recorder computes it (64-bit FNV-1a of the lines before it)
  local v=$(( 0xcbf29ce484222325 )) first=1 line b
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$first" = 0 ] && [[ $line == *',"chain":"'????????????????'"}' ]]; then
      line="${line%,\"chain\":\"*}"
      line="$line,\"chain\":\"$(printf '%016x' "$v")\"}"
    fi
    first=0
    printf '%s\n' "$line"
    for b in $(printf '%s' "$line" | od -An -tu1 -v); do v=$(( (v ^ b) * 0x100000001b3 )); done
    v=$(( (v ^ 10) * 0x100000001b3 ))
  done < "$1" > "$2"
}
mkdir -p "$in/claims" "$in/claims-shards"
rec="$in/claims/live.jsonl"
"$bin" host --seed 3 --record "$rec" < Fixtures/strokes/decimal-point.jsonl > /dev/null
rec_lines=$(wc -l < "$rec")
rec_header=$(head -1 "$rec")
no_recorder=${rec_header%%,\"recorder\":*}'}'
unchain() { sed -E 's/,"chain":"[0-9a-f]{16}"\}$/}/'; }
{ echo "$no_recorder"; sed -n "2,$((rec_lines * 6 / 10))p" "$rec"; } > "$in/claims/no-recorder.jsonl"
{ echo "${rec_header%%\"recorder\":*}\"recorder\":null}"; sed -n "2,$((rec_lines * 6 / 10))p" "$rec"; } > "$in/claims/null-recorder.jsonl"
{ echo "${no_recorder/\"version\":3/\"version\":1}"; sed -n "2,$((rec_lines * 6 / 10))p" "$rec"; } > "$in/claims/version-1-chained.jsonl"
{ echo "${no_recorder/\"version\":3/\"version\":1}"; sed -n "2,$((rec_lines * 6 / 10))p" "$rec" | unchain; } > "$in/claims/version-1-decided.jsonl"
{ echo "${rec_header/\"version\":3/\"version\":2}"; sed -n "2,$((rec_lines * 6 / 10))p" "$rec"; } > "$in/claims/version-2-cut.jsonl"
{ echo "${rec_header/\"version\":3/\"version\":2}"; tail -n +2 "$rec" | unchain; } > "$in/claims/version-2-end.jsonl"
{ echo "${rec_header/\"engine\":\"*\",\"configuration\"/\"configuration\"}"; tail -n +2 "$rec"; } > "$work/no-engine.jsonl"
rechain "$work/no-engine.jsonl" "$in/claims/no-engine.jsonl"
{ echo "${rec_header/\"engine\":\"*\",\"configuration\"/\"engine\":null,\"configuration\"}"; tail -n +2 "$rec"; } > "$work/null-engine.jsonl"
rechain "$work/null-engine.jsonl" "$in/claims/null-engine.jsonl"
# A line no live engine takes (a document of scale 0), after the third line, the end line's count mended.
{ sed -n 1,3p "$rec"
  echo "{\"kind\":\"document\",\"t\":$(sed -n 3p "$rec" | sed -E 's/.*"t":([^,]*),.*/\1/'),\"page_transform\":{\"scale\":0,\"offset_x\":0,\"offset_y\":0},\"chain\":\"0000000000000000\"}"
  sed -n "4,$((rec_lines - 1))p" "$rec"
  tail -1 "$rec" | sed "s/\"lines\":$((rec_lines - 1)),/\"lines\":$rec_lines,/"; } > "$work/refused.jsonl"
rechain "$work/refused.jsonl" "$in/claims/refused.jsonl"
{ cat "$rec"; printf '\n\n'; } > "$in/claims/blank-after-end.jsonl"
head -n $((rec_lines * 6 / 10)) "$rec" > "$in/claims-shards/a-cut.jsonl"
cp "$rec" "$in/claims-shards/b-whole.jsonl"
# Issue 53: one host line of 900 KB (a page snapshot of 18,500 regions), then 100,000 ticks:
# every later line allocated a buffer as large as it (164 GB of address space after 20,000).
awk 'BEGIN { print "{\"kind\":\"tick\",\"t\":0.5}"; printf "{\"kind\":\"page\",\"t\":1,\"message\":{\"type\":\"regions\",\"generation\":1,\"maxAge\":30000,\"regions\":["
  for (i = 0; i < 18500; i++) printf "%s{\"x\":%d.5,\"y\":%d.25,\"width\":10,\"height\":10}", (i ? "," : ""), i % 1000, int(i / 1000)
  print "]}}"; for (i = 1; i <= 100000; i++) printf "{\"kind\":\"tick\",\"t\":%.3f}\n", 1 + i * 0.001 }' > "$in/long-line-then-ticks.jsonl"

# Issue 53: a corpus of 250 small logs for a pool of worker threads the system refuses.
mkdir -p "$in/many"
for k in $(seq 1 250); do cp Fixtures/strokes/decimal-point.jsonl "$in/many/s$k.jsonl"; done
chmod a+x "$work" "$in"; chmod -R a+rX "$in/many"   # read by an unprivileged user id below

# Issue 53: a snapshot the engine takes (10,500 regions at 1e15, 494 KB) and a touch it decides.
awk -v h="$header" 'BEGIN { print h; printf "{\"kind\":\"page\",\"t\":1,\"message\":{\"type\":\"regions\",\"generation\":1,\"maxAge\":30000,\"regions\":["
  for (i = 0; i < 10500; i++) printf "%s{\"x\":1e15,\"y\":1e15,\"width\":1e15,\"height\":1e15}", (i ? "," : "")
  print "]}}"
  print "{\"kind\":\"touch\",\"t\":2,\"touch\":1,\"phase\":\"began\",\"tool\":\"finger\",\"samples\":[{\"t\":2,\"x\":1e15,\"y\":1e15}]}"
  print "{\"kind\":\"touch\",\"t\":2.05,\"touch\":1,\"phase\":\"ended\",\"samples\":[{\"t\":2.05,\"x\":1e15,\"y\":1e15}]}" }' > "$in/snapshot-1e15.jsonl"

hash_inputs() { find "$in" -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(hash_inputs)

failures=0 runs=0
# run EXPECT LABEL ARGS...: EXPECT is "any" (exit < 128), "refuse" (exit 1..127), "fail1"
# (exit 1 and a message on standard error), or "exit=N[:PHRASE]" (exit N exactly, and PHRASE
# on standard error).
run() {
  local expect=$1 label=$2; shift 2
  local want=${expect#exit=} phrase=
  if [ "$want" != "$expect" ]; then case $want in *:*) phrase=${want#*:}; want=${want%%:*};; esac; fi
  local stats="$work/time.$$" status kb
  runs=$((runs + 1))
  /usr/bin/time -f '%M' -o "$stats" timeout -k 5 "$seconds" "$@" > "$work/stdout" 2> "$work/stderr" < /dev/null
  status=$?
  kb=$(tail -1 "$stats" 2>/dev/null | tr -dc 0-9); kb=${kb:-0}
  local verdict=ok
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then verdict="hung (killed after ${seconds} s)"
  elif [ "$status" -ge 128 ]; then verdict="crashed (exit $status): $(tail -c 300 "$work/stderr")"
  elif [ "$expect" = refuse ] && [ "$status" -eq 0 ]; then verdict="accepted an output that names an input"
  elif [ "$expect" = fail1 ] && { [ "$status" -ne 1 ] || [ ! -s "$work/stderr" ]; }; then
    verdict="expected exit 1 with a message, got exit $status: $(tail -c 300 "$work/stderr")"
  elif [ "$kb" -gt "$max_kb" ]; then verdict="peak memory $((kb / 1024)) MB over $((max_kb / 1024)) MB"
  elif grep -q $'\e' "$work/stdout" "$work/stderr"; then verdict="a raw ESC byte on standard output or error: $(grep -a $'\e' "$work/stdout" "$work/stderr" | head -c 200 | cat -v)"
  elif [ "$want" != "$expect" ] && [ "$status" -ne "$want" ]; then verdict="exit $status, expected $want: $(tail -c 300 "$work/stderr")"
  elif [ -n "$phrase" ] && ! grep -qF -- "$phrase" "$work/stderr"; then verdict="standard error does not say '$phrase': $(tail -c 300 "$work/stderr")"
  fi
  if [ "$verdict" != ok ]; then
    failures=$((failures + 1))
    echo "FAIL  $label: $verdict"
  else
    printf '  ok  %-58s exit %3d  %6d MB\n' "$label" "$status" "$((kb / 1024))"
  fi
}

echo "hostile sweep: $bin, each run under ${seconds} s and $((max_kb / 1024)) MB"
for log in latency-1e13 time-1e300 coordinates-huge never-ending ids-never-repeat; do
  f="$in/$log.jsonl"
  run any "verify $log" "$bin" verify "$f"
  run any "run $log" "$bin" run "$f"
  run any "run $log --oracle-latency 30" "$bin" run "$f" --oracle-latency 30
  run any "run $log --json" "$bin" run "$f" --json
  run any "render $log" "$bin" render "$f" -o "$out/$log.svg"
  run any "timeline $log" "$bin" timeline "$f" -o "$out/$log.timeline.svg"
  run any "export $log" "$bin" export "$f" -o "$out/$log.inkml"
  run any "stats $log" "$bin" stats "$f"
  run any "host $log" bash -c "'$bin' host < '$f'"
  run any "host --geometry $log" bash -c "'$bin' host --geometry < '$f'"
done
run any "host: a tick at 1e13 s, then the end" bash -c "printf '%s\n' '{\"kind\":\"tick\",\"t\":1}' '{\"kind\":\"tick\",\"t\":1e13}' | '$bin' host"
run any "verify a corpus with a FIFO and a link to /dev/zero" "$bin" verify "$in/corpus"
run any "run a corpus with a FIFO and a link to /dev/zero" "$bin" run "$in/corpus"
run any "stats a corpus with a FIFO and a link to /dev/zero" "$bin" stats "$in/corpus"
run any "render a link to /dev/zero" "$bin" render "$in/corpus/zero.jsonl" -o "$out/zero.svg"
run any "verify through process substitution" bash -c "'$bin' verify <(cat Fixtures/strokes/decimal-point.jsonl)"
run any "convert joined InkML traces" "$bin" convert "$in/joined.inkml" -o "$out/joined"
run any "smooth an overflowing stroke" "$bin" smooth "$in/strokes.jsonl" -o "$out/smooth.jsonl"
run any "bench strokes an overflowing stroke" "$bin" bench strokes "$in/strokes.jsonl" --passes 1
run refuse "render s.jsonl -o s.jsonl" "$bin" render "$in/s.jsonl" -o "$in/s.jsonl"
run refuse "timeline s.jsonl -o s.jsonl" "$bin" timeline "$in/s.jsonl" -o "$in/s.jsonl"
run refuse "export s.jsonl -o s.jsonl" "$bin" export "$in/s.jsonl" -o "$in/s.jsonl"
run refuse "render s.jsonl -o sub/../s.jsonl" "$bin" render "$in/s.jsonl" -o "$in/sub/../s.jsonl"
run refuse "render s.jsonl -o (its hard link)" "$bin" render "$in/s.jsonl" -o "$in/hard.jsonl"
run refuse "render s.jsonl -o (a link to it)" "$bin" render "$in/s.jsonl" -o "$in/soft.jsonl"
run refuse "smooth strokes.jsonl -o strokes.jsonl" "$bin" smooth "$in/strokes.jsonl" -o "$in/strokes.jsonl"
run refuse "convert dir/plain.jsonl --format inkml -o dir" "$bin" convert "$in/dir/plain.jsonl" --format inkml -o "$in/dir"
for args in "bench --latencies ,,," "bench --strokes -5" "run --jitter -1 $in/s.jsonl" "render" "render $in/s.jsonl" \
            "verify --oracle psychic $in/s.jsonl" "timeline --json $in/s.jsonl -o $out/t.svg" "soak --hours 0" "soak --hours 1e300" \
            "fixtures" "convert" "export $in/s.jsonl" "stats --nonsense" "frobnicate" "host --geometry --geometry"; do
  # shellcheck disable=SC2086
  run any "absurd: $args" "$bin" $args
done
run any "absurd: an empty argument" "$bin" verify ""
# Names that are not text: read by their bytes (the truncated log fails verify), printed
# escaped by every subcommand that takes a path, on every stream and in every format.
n="$in/names" f="$in/names-flat"
run 'exit=1:bad\x{FF}.jsonl:1: malformed JSON' "names: verify a truncated non-UTF-8-named log in a directory" "$bin" verify "$n"
run 'exit=1:bad\x{FF}.jsonl:1: malformed JSON' "names: verify it named directly" "$bin" verify "$n/"$'bad\xff.jsonl'
run 'exit=1:symbolic-link loop' "names: run (its table) a directory of hostile names" "$bin" run "$n"
run 'exit=1:symbolic-link loop' "names: run --json --junit a directory of hostile names" "$bin" run --json --junit "$out/junit-$esc.xml" "$n"
run 'exit=1:symbolic-link loop' "names: verify --json a directory of hostile names" "$bin" verify --json "$n"
run 'exit=1:symbolic-link loop' "names: stats, and --json" bash -c "'$bin' stats '$n'; '$bin' stats --json '$n'"
run 'exit=1:is a symbolic-link loop' "names: verify a symbolic-link loop named directly" "$bin" verify "$n/loop.jsonl"
run any "names: verify --shard 1/2 and 2/2 --json" bash -c "'$bin' verify --shard 1/2 --json '$n' > '$out/r1-$esc.json'; '$bin' verify --shard 2/2 --json '$n' > '$out/r2-$esc.json'"
run 'exit=1:bad\x{FF}.jsonl' "names: merge-reports of the shards" "$bin" merge-reports "$out/r1-$esc.json" "$out/r2-$esc.json"
run 'exit=1:x\u{1B}[2J.jsonl' "names: merge-reports of a forged report, text and --json" bash -c "'$bin' merge-reports '$f/report-$esc.json'; '$bin' merge-reports --json '$f/report-$esc.json'"
for command in render timeline export; do
  run any "names: $command a hostile name to a hostile name" "$bin" "$command" "$f/$esc"$'\xff.jsonl' -o "$out/$command-$esc"$'\xfe'
done
run any "names: convert a hostile InkML name into a hostile folder" "$bin" convert "$f/$esc.inkml" -o "$out/convert-$esc"$'\xfd'
run any "names: smooth and bench strokes a hostile name" bash -c "'$bin' smooth '$f/strokes-$esc.jsonl' -o '$out/smooth-$esc'; '$bin' bench strokes '$f/strokes-$esc.jsonl' --passes 1"
run any "names: host --record a hostile name" bash -c "'$bin' host --record '$out/host-$esc'\$'\\xfe.jsonl' < '$f/$esc'\$'\\xff.jsonl'"
run any "names: fixtures into a hostile folder" "$bin" fixtures "$out/fixtures-$esc"$'\xfc'
# The fast number reader's clamped exponent is refused as the general reader refuses it.
run 'exit=1:out of range' "verify 0. + 99,999 zeros + 1e1000000" "$bin" verify "$in/clamped-exponent.jsonl"
# Whole-number options take decimal digits only.
for args in "verify --jobs 1.5" "verify --jobs 0x10" "verify --jobs 1e3" "run --seed 0x10" "verify --shard +1/2" \
            "bench strategies --strokes 1e3" "bench strokes --passes 2.0" "convert --limit 1e3 -o $out/c" "soak --seed 1.5"; do
  # shellcheck disable=SC2086
  run 'exit=64:decimal' "options: $args" "$bin" $args "$in/s.jsonl"
done
run 'exit=64:takes a number' "options: run --timeout 0x10 (decimal notation only)" "$bin" run --timeout 0x10 "$in/s.jsonl"

# refuse_naming TEXT LABEL ARGS...: must exit 1..127 (no crash, no hang, no success) and say
# TEXT (the target it could not write) on standard error.
refuse_naming() {
  local text=$1 label=$2; shift 2
  runs=$((runs + 1))
  timeout -k 5 "$seconds" "$@" > "$work/stdout" 2> "$work/stderr" < /dev/null
  local status=$? verdict=ok
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then verdict="hung (killed after ${seconds} s)"
  elif [ "$status" -ge 128 ]; then verdict="crashed (exit $status): $(tail -c 300 "$work/stderr")"
  elif [ "$status" -eq 0 ]; then verdict="exit 0: the failure was not reported"
  elif ! grep -qF -- "$text" "$work/stderr"; then verdict="exit $status without naming '$text': $(head -c 300 "$work/stderr")"
  fi
  if [ "$verdict" != ok ]; then failures=$((failures + 1)); echo "FAIL  $label: $verdict"
  else printf '  ok  %-58s exit %3d\n' "$label" "$status"; fi
}

# Full disks: /dev/full for standard output of every subcommand that prints, and for each
# kind of output target; `ulimit -f` (KiB in bash) for a recording and a JUnit report.
if [ -c /dev/full ]; then
  s="$in/s.jsonl"
  echo '[[1,1,0],[2,2,8],[4,3,16]]' > "$out/stroke.jsonl"
  for args in "verify $s" "verify --json $s" "run $s" "run --json $s" "stats $s" "stats --json $s" "export $s -o $out/full.inkml" \
              "fixtures $out/full-fixtures" "convert $in/joined.inkml -o $out/full-convert" "bench strokes $out/stroke.jsonl --passes 1" \
              "help" "help verify"; do
    refuse_naming "standard output: cannot write" "stdout > /dev/full: $args" bash -c "exec '$bin' $args > /dev/full"
  done
  "$bin" verify --json "$s" > "$out/report.json"
  refuse_naming "standard output: cannot write" "stdout > /dev/full: merge-reports" bash -c "exec '$bin' merge-reports '$out/report.json' > /dev/full"
  refuse_naming "standard output: cannot write" "stdout > /dev/full: host" bash -c "exec '$bin' host < '$s' > /dev/full"
  refuse_naming "standard output: cannot write" "stdout > /dev/full: host --record" bash -c "exec '$bin' host --record '$out/full-host.jsonl' < '$s' > /dev/full"
  refuse_naming "--junit /dev/full" "verify --junit /dev/full" "$bin" verify "$s" --junit /dev/full
  refuse_naming "--junit /dev/full" "run --junit /dev/full" "$bin" run "$s" --junit /dev/full
  refuse_naming "--record /dev/full" "host --record /dev/full" bash -c "exec '$bin' host --record /dev/full < '$s'"
  for command in render export timeline; do
    refuse_naming "/dev/full" "$command -o /dev/full" "$bin" $command "$s" -o /dev/full
  done
else
  failures=$((failures + 1)); echo "FAIL  no /dev/full: a full disk cannot be swept here"
fi
refuse_naming "--record $out/limited.jsonl: cannot write (File too large)" "host --record under ulimit -f 4" \
  bash -c "ulimit -f 4; exec '$bin' host --record '$out/limited.jsonl' < '$in/s.jsonl' > /dev/null"
refuse_naming "--junit $out/limited.xml: cannot write (File too large)" "verify --junit under ulimit -f 1" \
  bash -c "ulimit -f 1; exec '$bin' verify Fixtures/strokes --junit '$out/limited.xml'"
# Outputs that name inputs: standard input's file, a log of the other shard.
refuse_naming "--record $in/s.jsonl: is the same file as standard input" "host --record s.jsonl < s.jsonl" \
  bash -c "exec '$bin' host --record '$in/s.jsonl' < '$in/s.jsonl'"
refuse_naming "$in/s.jsonl: is the same file as standard input" "render -o s.jsonl < s.jsonl" \
  bash -c "exec '$bin' render Fixtures/strokes/decimal-point.jsonl -o '$in/s.jsonl' < '$in/s.jsonl'"
refuse_naming "--junit $in/shard/d.jsonl: is the same file as the input" "verify --shard 1/2 --junit (a log of shard 2)" \
  "$bin" verify --shard 1/2 "$in/shard" --junit "$in/shard/d.jsonl"
refuse_naming "--junit $in/shard/a.jsonl: is the same file as the input" "run --shard 2/2 --junit (a log of shard 1)" \
  "$bin" run --shard 2/2 "$in/shard" --junit "$in/shard/a.jsonl"
refuse_naming "--record $out/$(printf 'x%.0s' {1..300}).jsonl: a name of 306 bytes" "host --record (a 306-byte name)" \
  bash -c "exec '$bin' host --record '$out/$(printf 'x%.0s' {1..300}).jsonl' < '$in/s.jsonl'"
for report in shard-0-of-0 shard-1-of-9e15 shard-1-of-100000 sessions-9e15 unverified-0-failed unsharded-9e15; do
  run fail1 "merge-reports $report" "$bin" merge-reports "$in/reports/$report.json"
done
run fail1 "merge-reports 1,025 shards whose totals add past Int" bash -c "'$bin' merge-reports '$in'/reports/overflow/*.json"
run fail1 "merge-reports an endless pipe (/dev/zero)" bash -c "cat /dev/zero | '$bin' merge-reports /dev/stdin"
# bench holds the strokes of the logs it is given: at most 64 MiB of logs in all (issue 42: it
# read every log whole, without bound). An endless pipe of 64 KiB blank lines after a header
# (the reading stops at the limit: some 12 s in a debug build), and a 70 MB (sparse) file,
# refused by its size before it is read.
refuse_naming "/dev/stdin: the session logs given pass 64 MiB here" "bench geometry an endless pipe of blank lines" \
  bash -c "{ echo '$header'; yes \"\$(printf '%65535s' '')\"; } | exec '$bin' bench geometry --passes 1 /dev/stdin"
truncate -s 70M "$out/sparse-70M.jsonl"
refuse_naming "sparse-70M.jsonl: the session logs given pass 64 MiB here" "bench a 70 MB log" \
  "$bin" bench --strokes 0 --latencies 0 "$out/sparse-70M.jsonl"
rm -f "$out/sparse-70M.jsonl"
for log in lifted-active-touches lifted-round-trips lifted-timeout; do
  for command in verify run stats; do
    run fail1 "$command $log" "$bin" "$command" "$in/$log.jsonl"
  done
  run fail1 "timeline $log" "$bin" timeline "$in/$log.jsonl" -o "$out/$log.timeline.svg"
  run fail1 "render $log" "$bin" render "$in/$log.jsonl" -o "$out/$log.svg"
done
# Issue 53: resources a command asks for can be refused; memory is flat after a long line.
# Issue 53: two host --record runs to one path. The first takes lines up to a touch and answers
# it (so its temporary file exists), the second runs to its end and wins; the first must then
# exit 1, saying its target changed and where its recording is kept.
mkfifo "$work/race-in" "$work/race-out"
run 'exit=1:changed since this command began (a file appeared there)' "host --record: two recorders, one path (one wins, the other says so)" \
  bash -c "'$bin' host --seed 1 --record '$out/race.jsonl' < '$work/race-in' > '$work/race-out' & first=\$!
    exec 3> '$work/race-in' 4< '$work/race-out'
    sed -n '1,3p' Fixtures/strokes/tap-button.jsonl >&3; read -r answer <&4
    '$bin' host --seed 2 --record '$out/race.jsonl' < Fixtures/strokes/tap-button.jsonl > /dev/null || exit 3
    sed -n '4,\$p' Fixtures/strokes/tap-button.jsonl >&3; exec 3>&-; cat <&4 > /dev/null; wait \$first"
run exit=0 "host --record a 494 KB snapshot of 10,500 regions at 1e15, then verify the recording" \
  bash -c "'$bin' host --seed 1 --record '$out/snapshot.jsonl' < '$in/snapshot-1e15.jsonl' > /dev/null && exec '$bin' verify '$out/snapshot.jsonl'"
run 'exit=0:the system refused a thread' "verify --jobs 200 under ulimit -v 1 GB (threads refused: a smaller pool)" \
  bash -c "ulimit -v 1048576; exec '$bin' verify --jobs 200 '$in/many'"
# As root, a user id nothing else runs as (the limit counts every process of the user).
if [ "$(id -u)" -ne 0 ]; then drop=""; elif command -v setpriv > /dev/null; then drop="setpriv --reuid=61234 --regid=61234 --clear-groups"; else drop=skip; fi
if [ "$drop" != skip ]; then
  run 'exit=0:the system refused a thread' "verify --jobs 64 under ulimit -u 30 (unprivileged)" \
    bash -c "ulimit -u 30; exec $drop '$bin' verify --jobs 64 '$in/many'"
else
  echo "  skipped  verify --jobs 64 under ulimit -u 30: root ignores the limit and setpriv is missing"
fi
run 'exit=1:Too many open files' "verify --jobs 8 of 250 logs under ulimit -n 9" bash -c "ulimit -n 9; exec '$bin' verify --jobs 8 '$in/many'"
mkdir -p "$out/fixtures-fds"
run 'exit=1:Too many open files' "fixtures under ulimit -n 8" bash -c "ulimit -n 8; exec '$bin' fixtures '$out/fixtures-fds'"
run exit=0 "host: 100,000 lines after a 900 KB line, under ulimit -v 1 GB" \
  bash -c "ulimit -v 1048576; exec '$bin' host --seed 1 < '$in/long-line-then-ticks.jsonl' > /dev/null"
run any "verify a recording at the engine's maximums, 20,000 touches never ending" "$bin" verify "$in/at-maximum.jsonl"
run any "verify 64 touches queuing 8,192 samples each (the maximums)" "$bin" verify "$in/queues-at-maximum.jsonl"
# Issue 53, cases 5-8: a header cannot switch its recording's checks off; no option turns a
# check off in silence; a refused line is never counted identical; the small ones.
c="$in/claims"
run 'exit=0' "claims: the genuine recording verifies identically" bash -c "'$bin' verify '$rec' | grep -q 'identity: 1 of 1'"
run 'exit=1:recorder: missing' "claims: verify a cut recording whose recorder block was deleted" "$bin" verify "$c/no-recorder.jsonl"
run 'exit=1:recorder: missing' "claims: verify a cut recording whose recorder block is null" "$bin" verify "$c/null-recorder.jsonl"
run 'exit=1:version-1-chained.jsonl:2: a "chain" field under a header with no "recorder" block' "claims: version 1 over chained lines" "$bin" verify "$c/version-1-chained.jsonl"
run 'exit=1: line under a header with no "recorder" block' "claims: version 1 over recorded lines" "$bin" verify "$c/version-1-decided.jsonl"
run 'exit=1:version-2-cut.jsonl:2: a "chain" field under a header of format version 2' "claims: a cut recording called version 2" "$bin" verify "$c/version-2-cut.jsonl"
run 'exit=1:an "end" line under a header of format version 2' "claims: version 2 with an end line" "$bin" verify "$c/version-2-end.jsonl"
run 'exit=1:no-engine.jsonl:1: not identical to the live recording: the header names no engine version' "claims: no engine version, re-chained" "$bin" verify "$c/no-engine.jsonl"
run 'exit=1:null-engine.jsonl:1: not identical to the live recording: the header names no engine version' "claims: engine null, re-chained" "$bin" verify "$c/null-engine.jsonl"
run 'exit=1:counted 0 identical' "claims: a refused line (a document of scale 0) is not counted identical" \
  bash -c "out=\$('$bin' verify '$c/refused.jsonl'); status=\$?; echo \"\$out\" | grep -q 'identity: 0 of 1' && echo 'counted 0 identical' >&2; exit \$status"
run 'exit=0' "claims: blank lines after the end line" "$bin" verify "$c/blank-after-end.jsonl"
for oracle in "--oracle-latency 30" "--oracle regions"; do
  run 'exit=0:identity not checked' "claims: verify $oracle counts the recording and says why" \
    bash -c "out=\$('$bin' verify $oracle '$rec') || exit 2; echo \"\$out\" | grep -q 'identity: 0 of 1' || exit 3; echo \"\$out\" | grep -o 'identity not checked' >&2"
  run 'exit=1:incomplete recording' "claims: verify $oracle on a cut recording" "$bin" verify $oracle "$in/claims-shards/a-cut.jsonl"
done
run 'exit=1:the reports are not of one run' "claims: merge-reports of shards with and without --accept-incomplete" \
  bash -c "'$bin' verify --shard 1/2 --json --accept-incomplete '$in/claims-shards' > '$out/claims-1.json'; '$bin' verify --shard 2/2 --json '$in/claims-shards' > '$out/claims-2.json'; exec '$bin' merge-reports '$out/claims-1.json' '$out/claims-2.json'"
run 'exit=0:time jumps 3.4e+308 s ahead' "claims: host, a time jump past the largest double" \
  bash -c "printf '%s\n' '{\"kind\":\"tick\",\"t\":-1.7e308}' '{\"kind\":\"tick\",\"t\":1.7e308}' | '$bin' host | grep -o 'time jumps [^ ]* s ahead' >&2"

after=$(hash_inputs)
if [ "$before" != "$after" ]; then
  failures=$((failures + 1))
  echo "FAIL  an input was modified:"
  diff <(echo "$before") <(echo "$after") | head -20
fi
echo "hostile sweep: $runs runs, $failures failures"
[ "$failures" -eq 0 ]
