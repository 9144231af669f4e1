#!/usr/bin/env bash
# What one `nab validate` check costs before its task's tests do any work (issue 41): N
# trials of a task whose one verify step is pytest with a single empty test, run as the
# suite's tasks run theirs (the runner as the verifier user, the broker beside it, the
# planted canaries, the reaper, the JUnit report read back). Every check of the suite pays
# this: two containers, about five execs, a copy of /nab, a pytest start and the canaries.
#
#   benches/measure-check-floor.sh [TASKS_DIR]   (default: tasks, for the suite's floor)
#
# It prints the busy CPU-s of the whole machine per check (from /proc/stat: the engine's
# work counts, so run it with nothing else running), then the suite's floor: the checks
# `nab validate TASKS_DIR` runs (an oracle, a null and each wrong solution per task) times
# that, and the wall time it takes on this machine's processors when they are all busy.
# NAB=path/to/nab measures another build (default: target/release/nab, built first); N
# trials (10).
set -euo pipefail
cd "$(dirname "$0")/.."
tasks="${1:-tasks}"
[ -d "$tasks" ] || { echo "measure-check-floor: no task folder at $tasks" >&2; exit 2; }
if [[ -z "${NAB:-}" ]]; then
    cargo build --release --quiet -p nab-harness --bin nab
    NAB=./target/release/nab
fi
N=${N:-10}
"$NAB" image build >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t="$tmp/suite/check-floor"
mkdir -p "$t/workspace" "$t/tests" "$t/solution"
cat > "$t/task.yaml" <<YAML
id: check-floor
category: terminal
language: python
difficulty: easy
timeouts: {agent_s: 60, verify_s: 60}
limits: {cpus: 1.0, memory_mb: 256, pids: 64}
verify:
  - argv: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "/dev/null",
           "--rootdir", "/nab/tests", "--confcutdir", "/nab/tests",
           "--junitxml", "/nab/verify/junit.xml", "/nab/tests"]
    timeout_s: 30
    junit: /nab/verify/junit.xml
solution: ["true"]
YAML
echo "Do nothing." > "$t/instruction.md"
echo "hello" > "$t/workspace/file.txt"
echo "def test_nothing(): pass" > "$t/tests/test_nothing.py"

# Busy CPU time of the whole machine so far, in clock ticks (user+nice+system+irq+softirq).
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8; exit}' /proc/stat; }
ticks=$(getconf CLK_TCK)
# One trial first, so that nothing built or cached on first use is counted.
"$NAB" run --tasks "$tmp/suite" --agent oracle --trials 1 -j 1 --out "$tmp/warm" >/dev/null 2>&1
b=$(busy)
s=$(date +%s.%N)
"$NAB" run --tasks "$tmp/suite" --agent oracle --trials "$N" -j 1 --out "$tmp/out" >/dev/null 2>&1
wall=$(echo "($(date +%s.%N) - $s) / $N" | bc -l)
cpu=$(echo "($(busy) - $b) / $ticks / $N" | bc -l)
passed=$(grep -c '"status":"passed"' "$tmp/out/results.jsonl" || true)
[ "$passed" = "$N" ] || { echo "only $passed of $N trials passed: $tmp/out" >&2; exit 1; }
printf 'one check: %.2f busy CPU-s, %.2f s wall at -j 1 (%s trials)\n' "$cpu" "$wall" "$N"

# The checks nab validate runs for TASKS_DIR: per task an oracle, a null agent, and one
# per folder of wrong/.
checks=0
for d in "$tasks"/*/; do
    [ -f "$d/task.yaml" ] || continue
    wrong=0
    [ -d "$d/wrong" ] && wrong=$(find "$d/wrong" -mindepth 1 -maxdepth 1 -type d | wc -l)
    checks=$((checks + 2 + wrong))
done
cpus=$(nproc)
printf '%s: %d checks, floor %.0f busy CPU-s, %.0f s on %d busy processors\n' \
    "$tasks" "$checks" "$(echo "$checks * $cpu" | bc -l)" "$(echo "$checks * $cpu / $cpus" | bc -l)" "$cpus"
