#!/usr/bin/env bash
# A no-op trial against two bare containers, two nab builds compared back to back (issue 41):
# ci/measure-overhead.sh with BEFORE and AFTER in turn (A B A B …), ROUNDS rounds of N trials
# each, then every ratio, the medians, each build's median phase times and the load average.
# The machine's load moves both builds' figures alike; only the interleaving makes them
# comparable.
# Usage: benches/measure-trial-overhead.sh BEFORE_NAB AFTER_NAB [ROUNDS] (N=5 trials a round)
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1 after=$2 rounds=${3:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for side in before after; do
    bin=$before; [ "$side" = after ] && bin=$after
    NAB=$bin RESULTS_OUT="$out/$side-$r.jsonl" ci/measure-overhead.sh > "$out/$side-$r.txt" 2>/dev/null
    ratio=$(sed -n 's/^ratio nab trial \/ two bare runs //p' "$out/$side-$r.txt")
    echo "$side round $r: ratio $ratio ($(grep -E '^(bare|nab):' "$out/$side-$r.txt" | tr -s ' ' | tr '\n' ' '))"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" "$rounds" <<'PY'
import json, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
for side in ("before", "after"):
    ratios, rows = [], []
    for r in range(1, rounds + 1):
        text = open(os.path.join(out, "%s-%d.txt" % (side, r))).read()
        ratios.append(float(re.search(r"^ratio nab trial / two bare runs ([0-9.]+)", text, re.M).group(1)))
        rows += [json.loads(l).get("phase_ms") for l in open(os.path.join(out, "%s-%d.jsonl" % (side, r))) if l.strip()]
    rows = [x for x in rows if x]
    print("%s: median ratio %.2f of %s" % (side, statistics.median(ratios), ratios))
    if rows:
        keys = list(dict.fromkeys(k for x in rows for k in x))
        print("  median ms over %d trials: %s; sum %g" % (
            len(rows),
            " ".join("%s=%g" % (k, statistics.median(x.get(k, 0) for x in rows)) for k in keys),
            statistics.median(sum(x.values()) for x in rows)))
PY
