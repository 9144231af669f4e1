#!/usr/bin/env bash
# Per-trial overhead of nab against bare containers, measured in the same run:
# N trials of a no-op task (oracle `true`, verify `true`: two containers, two execs,
# workspace copy in/out, diff) versus N pairs of `docker run --rm --network none <image> true`;
# then each phase's median time over the nab trials (the record's `phase_ms`), and the
# processors' busy time per trial and per bare pair (from /proc/stat: the engine's work
# counts too, and on a machine with nothing else running it is the trials' cost in CPU-s).
# NAB=<binary> measures another build; benches/measure-trial-overhead.sh compares two.
set -euo pipefail
cd "$(dirname "$0")/.."
NAB=${NAB:-./target/release/nab}
N=${N:-5}
image=$("$NAB" image tag)
"$NAB" image build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t="$tmp/suite/noop"
mkdir -p "$t/workspace" "$t/tests" "$t/solution"
cat > "$t/task.yaml" <<YAML
id: noop
category: terminal
language: shell
difficulty: easy
timeouts: {agent_s: 60, verify_s: 60}
limits: {cpus: 1.0, memory_mb: 256, pids: 64}
verify:
  - argv: ["true"]
    timeout_s: 30
solution: ["true"]
YAML
echo "Do nothing." > "$t/instruction.md"
echo "hello" > "$t/workspace/file.txt"

now() { date +%s.%N; }
# Busy CPU time of the whole machine so far, in clock ticks (user+nice+system+irq+softirq).
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8; exit}' /proc/stat; }
ticks=$(getconf CLK_TCK)
b=$(busy)
s=$(now)
for _ in $(seq "$N"); do
  docker run --rm --network none --label nab.run=measure-bare "$image" true
  docker run --rm --network none --label nab.run=measure-bare "$image" true
done
bare=$(echo "($(now) - $s) / $N" | bc -l)
bare_cpu=$(echo "($(busy) - $b) / $ticks / $N" | bc -l)

b=$(busy)
s=$(now)
"$NAB" run --tasks "$tmp/suite" --agent oracle --trials "$N" -j 1 --out "$tmp/out" >/dev/null
trial=$(echo "($(now) - $s) / $N" | bc -l)
trial_cpu=$(echo "($(busy) - $b) / $ticks / $N" | bc -l)

printf 'bare: two docker runs          %.2f s\n' "$bare"
printf 'nab:  one trial (incl. startup) %.2f s\n' "$trial"
printf 'ratio nab trial / two bare runs %.2f\n' "$(echo "$trial / $bare" | bc -l)"
printf 'busy CPU-s: two bare runs %.2f, one nab trial %.2f\n' "$bare_cpu" "$trial_cpu"
# Where the trials' time went: each phase's median over the N trials (`phase_ms` in the
# record; absent from builds before it existed). RESULTS_OUT=<file> keeps the records.
python3 - "$tmp/out/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l).get("phase_ms") for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in rows if r]
if rows:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    med = {k: statistics.median(r.get(k, 0) for r in rows) for k in keys}
    print("phases, median ms: " + " ".join("%s=%g" % (k, v) for k, v in med.items()))
    print("phases, median sum: %g ms" % statistics.median(sum(r.values()) for r in rows))
PY
if [ -n "${RESULTS_OUT:-}" ]; then cp "$tmp/out/results.jsonl" "$RESULTS_OUT"; fi
