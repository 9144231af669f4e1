#!/usr/bin/env bash
# Where `nab validate`'s processor time goes, task by task (issue 41): each task validated
# on its own, at validate's default -j, with the busy CPU-s of the whole machine over it
# (from /proc/stat: the container engine's work counts, so run it with nothing else
# running). A task's checks (its oracle, its null agent and each wrong solution) then get
# one figure each: busy CPU-s per check, to set beside measure-check-floor.sh's floor (what
# a check costs before its tests do anything). The rest is the task's own tests.
#
#   benches/measure-validate-by-task.sh [TASKS_DIR] [TASK_ID ...]   (default: tasks, every task)
#
# Prints one line per task as it finishes, then the tasks by busy CPU-s, most first, and
# the sums. Every task must come out valid: a run whose verdicts are not as they must be
# stops with its log. Each task's own `nab validate` start is in its figure (about half a
# CPU-s), so the sum is a little above one run of the whole suite. NAB=path/to/nab
# measures another build (default: target/release/nab, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
tasks="${1:-tasks}"
[ -d "$tasks" ] || { echo "measure-validate-by-task: no task folder at $tasks" >&2; exit 2; }
shift || true
if [[ -z "${NAB:-}" ]]; then
    cargo build --release --quiet -p nab-harness --bin nab
    NAB=./target/release/nab
fi
ids=("$@")
if [ "${#ids[@]}" -eq 0 ]; then
    for d in "$tasks"/*/; do
        [ -f "$d/task.yaml" ] && ids+=("$(basename "$d")")
    done
fi
for id in "${ids[@]}"; do
    [ -f "$tasks/$id/task.yaml" ] || { echo "measure-validate-by-task: no task $id in $tasks" >&2; exit 2; }
done
"$NAB" image build --tasks "$tasks" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Busy CPU time of the whole machine so far, in clock ticks (user+nice+system+irq+softirq).
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8; exit}' /proc/stat; }
ticks=$(getconf CLK_TCK)
rows="$tmp/rows"
: > "$rows"
printf '%-28s %6s %8s %9s %9s\n' task checks wall_s busy_cpu_s per_check
for id in "${ids[@]}"; do
    wrong=0
    [ -d "$tasks/$id/wrong" ] && wrong=$(find "$tasks/$id/wrong" -mindepth 1 -maxdepth 1 -type d | wc -l)
    checks=$((2 + wrong))
    b=$(busy)
    s=$(date +%s.%N)
    if ! "$NAB" validate --tasks "$tasks" --out "$tmp/$id" "$id" > "$tmp/$id.log" 2>&1; then
        echo "measure-validate-by-task: $id is not valid (or validate failed):" >&2
        tail -n 20 "$tmp/$id.log" >&2
        exit 1
    fi
    wall=$(echo "$(date +%s.%N) - $s" | bc -l)
    cpu=$(echo "($(busy) - $b) / $ticks" | bc -l)
    line=$(printf '%-28s %6d %8.1f %9.1f %9.2f' "$id" "$checks" "$wall" "$cpu" "$(echo "$cpu / $checks" | bc -l)")
    echo "$line"
    echo "$line" >> "$rows"
done
echo
echo "by busy CPU-s:"
sort -k4 -g -r "$rows"
awk '{c += $2; w += $3; b += $4} END {printf "%-28s %6d %8.1f %9.1f %9.2f\n", "all", c, w, b, b / c}' "$rows"
