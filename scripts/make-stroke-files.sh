#!/usr/bin/env bash
# Writes stroke files (one stroke per line, a JSON array of [x, y, t_ms, pressure] points:
# the format `ink-replay bench strokes` and `ink-replay smooth` read, and the shared
# ink-quality harness writes) from session logs: every touch of every log becomes one stroke,
# its samples in order (estimated-property updates left out), times in milliseconds from the
# touch's first sample, pressure the sample's force or 0.5 where the log has none.
#
#   scripts/make-stroke-files.sh <session log or directory>... -o <strokes.jsonl>
#
# With no log named it reads Fixtures/strokes/real (48 sessions of real ink). Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=() out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--output) out="${2:?-o needs a file}"; shift 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[ -n "$out" ] || { echo "usage: scripts/make-stroke-files.sh [<log or directory>...] -o <strokes.jsonl>" >&2; exit 64; }
[ ${#inputs[@]} -gt 0 ] || inputs=(Fixtures/strokes/real)
python3 - "$out" "${inputs[@]}" <<'PY'
import json, os, sys, tempfile
out, inputs = sys.argv[1], sys.argv[2:]
logs = []
for path in inputs:
    if os.path.isdir(path):
        for root, dirs, files in os.walk(path):
            dirs.sort()
            logs += [os.path.join(root, f) for f in sorted(files) if f.endswith(".jsonl")]
    else:
        logs.append(path)
strokes = 0
directory = os.path.dirname(os.path.abspath(out))
fd, temporary = tempfile.mkstemp(dir=directory, prefix=".strokes-", suffix=".tmp")
try:
    with os.fdopen(fd, "w") as sink:
        for log in logs:
            live = {}
            with open(log) as source:
                for number, line in enumerate(source, 1):
                    record = json.loads(line)
                    if number == 1 or record.get("kind") != "touch":
                        continue
                    points = live.setdefault(record["touch"], [])
                    points += record.get("samples", [])
                    if record.get("phase") in ("ended", "cancelled"):
                        del live[record["touch"]]
                        if points:
                            t0 = points[0]["t"]
                            stroke = [[p["x"], p["y"], round((p["t"] - t0) * 1000, 3), p.get("force", 0.5)] for p in points]
                            sink.write(json.dumps(stroke, separators=(",", ":")) + "\n")
                            strokes += 1
    os.replace(temporary, out)
except BaseException:
    os.unlink(temporary)
    raise
print(f"wrote {strokes} strokes from {len(logs)} session logs to {out}")
PY
