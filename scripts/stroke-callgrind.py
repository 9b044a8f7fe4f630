#!/usr/bin/env python3
"""Instructions per sample of the stroke pipeline, from a callgrind profile of
`ink-replay bench strokes <file> --passes 1`.

That command runs four passes over the file's strokes (a warm-up with outlines and tail reads,
then append, append + outline, append + tail reads). Every call the bench's pass function makes
is summed by callee (inclusive cost), so:
- append: StrokeBuilder's reset() per stroke (its init and destruction, before the bench reused
  one builder), append and finish (everything the pass calls but the outline and the tail
  reads), per sample, over the four passes;
- outline: StrokeOutline's calls, per sample, over the two passes that outline.
Usage: stroke-callgrind.py <callgrind.out> <samples in the file>
"""
import re
import sys
from collections import defaultdict

path, samples = sys.argv[1], int(sys.argv[2])
names = {}


def name(token):
    # Function names are compressed: "(12) name" defines id 12, "(12)" reuses it.
    m = re.match(r"\((\d+)\)(?:\s+(.*))?$", token.strip())
    if not m:
        return token.strip()
    if m.group(2):
        names[m.group(1)] = m.group(2)
    return names[m.group(1)]


callees = defaultdict(lambda: [0, 0])  # callee -> [calls, inclusive Ir] from the pass function
current = None
pending = None
with open(path) as f:
    for line in f:
        if line.startswith("fn="):
            current = name(line[3:])
        elif line.startswith("cfn="):
            pending = name(line[4:])
        elif line.startswith("calls="):
            calls = int(line[6:].split()[0])
            cost = next(f).split()
            if current and "StrokeBench" in current and "pass" in current and pending:
                callees[pending][0] += calls
                callees[pending][1] += int(cost[1]) if len(cost) > 1 else 0
            pending = None

append = outline = tail = 0
# Arrays an outline call returns are released by the pass: that share of swift_release is the
# outline's (one release per returned array, the rest are the builders').
returned = sum(calls for callee, (calls, _) in callees.items() if "StrokeOutlineO7polygon3for7maxStepSay" in callee)
for callee, (calls, cost) in sorted(callees.items(), key=lambda kv: -kv[1][1]):
    if "StrokeBench" in callee:
        continue  # the pass itself (a specialisation calling its body)
    if callee == "swift_release" and returned:
        share = min(returned, calls) / calls
        outline += cost * share
        append += cost * (1 - share)
    elif "StrokeOutline" in callee:
        outline += cost
    elif "appendVolatileSegments" in callee:
        tail += cost
    elif "Clock" in callee or "Duration" in callee:
        continue
    else:
        append += cost
if "-v" in sys.argv:
    for callee, (calls, cost) in sorted(callees.items(), key=lambda kv: -kv[1][1]):
        print(f"{calls:10d} {cost:14d} {callee}")
print(f"append {append / (4 * samples):.0f} outline {outline / (2 * samples):.0f}")
