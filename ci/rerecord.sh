#!/usr/bin/env bash
# Records ci/cassette again and refreshes ci/baseline, in one command. Run it when the
# gate's `replay_miss` rule says the agent's requests changed (and the change is intended),
# then commit both folders with the change.
#
#   ci/rerecord.sh [MODEL_SPEC]
#
# MODEL_SPEC is what the cassette records (default scripted:task: each task's
# trajectory.yaml, so no key or network is needed). NAB_GATE_JOBS=N trials at once
# (default 2); NAB=path/to/nab uses an existing build.
# Steps: record the suite into a fresh cassette (every trial must pass), replay that
# cassette (every trial must pass again, with no miss), then swap both into ci/.
# Nothing in ci/ changes unless every step succeeded.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
spec="${1:-scripted:task}"
jobs="${NAB_GATE_JOBS:-2}"
nab="${NAB:-./target/release/nab}"
work="target/nab-rerecord"

[ -n "${NAB:-}" ] || cargo build --release -p nab-harness -p nab-agent
rm -rf "$work"
mkdir -p "$work"

# Every trial of a run passed: the cassette (or the baseline) is one the gate can stand on.
all_passed() {
  python3 - "$1" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1] + "/results.jsonl") if l.strip()]
bad = [f"{r['task_id']}: {r['status']} {r.get('error_kind') or r.get('failure_reason') or ''}".strip() for r in recs if r["status"] != "passed"]
drift = sum(len(r.get("replay_drift", [])) for r in recs)
print(f"{sys.argv[1]}: {len(recs)} trials, {len(recs) - len(bad)} passed, {drift} drifted calls")
for b in bad:
    print("  not passed:", b)
sys.exit(1 if bad or not recs else 0)
PY
}

echo "== recording the suite with $spec into $work/cassette"
"$nab" run --tasks tasks --agent nab-agent --model "record:$work/cassette:$spec" --trials 1 -j "$jobs" \
  --attempts 1 --out "$work/record" || true
all_passed "$work/record" || { echo "recording failed: ci/ is unchanged" >&2; exit 1; }

echo "== replaying it into the new baseline"
# The baseline's run.json names the cassette as the gate will: replay:ci/cassette.
rm -rf ci/cassette.new && cp -r "$work/cassette" ci/cassette.new
"$nab" run --tasks tasks --agent nab-agent --model "replay:ci/cassette.new" --trials 1 -j "$jobs" \
  --attempts 1 --out "$work/baseline" || true
if ! all_passed "$work/baseline"; then
  rm -rf ci/cassette.new
  echo "the new cassette does not replay cleanly: ci/ is unchanged" >&2
  exit 1
fi

rm -rf ci/cassette ci/baseline
mv ci/cassette.new ci/cassette
mkdir -p ci/baseline
# What the gate reads: the records, the run's metadata and summary, and each trial's files
# (transcripts, events, diffs, logs) for a reviewer; not the Parquet/HTML renderings.
cp "$work/baseline/results.jsonl" "$work/baseline/run.json" "$work/baseline/summary.json" ci/baseline/
cp -r "$work/baseline/trials" ci/baseline/trials
# The records name the cassette as the gate passes it.
sed -i 's#replay:ci/cassette.new#replay:ci/cassette#g' ci/baseline/results.jsonl ci/baseline/run.json ci/baseline/summary.json
find ci/baseline/trials -name transcript.jsonl -exec sed -i 's#replay:ci/cassette.new#replay:ci/cassette#g' {} +
echo "== ci/cassette ($(ls ci/cassette | wc -l) requests) and ci/baseline refreshed in $(( $(date +%s) - started ))s; commit both"
