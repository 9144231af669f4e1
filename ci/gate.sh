#!/usr/bin/env bash
# Replays the recorded cassette through nab-agent on the whole suite, then gates the run
# against the stored baseline. Any CI system can call this; ci/github-workflow.yml does.
#
#   ci/gate.sh [CASSETTE_DIR] [BASELINE_RUN_DIR]
#
# Outputs (kept as CI artifacts): target/nab-ci/run/ (results.jsonl, results.parquet,
# summary.json, report.html), compare.html, gate-junit.xml, gate-summary.md.
# Exit status: 0 gate passed, 1 gate failed, 2 the gate could not run (bad input).
set -euo pipefail
cd "$(dirname "$0")/.."
cassette="${1:-ci/cassette}"
baseline="${2:-ci/baseline}"
out="target/nab-ci"
# NAB=path/to/nab uses an existing build (its nab-agent must sit beside it) instead of building.
nab="${NAB:-./target/release/nab}"

[ -d "$cassette" ] || { echo "no cassette at $cassette: record one with --model record:<provider> first" >&2; exit 2; }
[ -f "$baseline/results.jsonl" ] || { echo "no baseline run at $baseline (needs results.jsonl)" >&2; exit 2; }

[ -n "${NAB:-}" ] || cargo build --release -p nab-harness -p nab-agent
rm -rf "$out/run"
mkdir -p "$out"
# Deterministic: the replay provider answers only recorded requests and fails on a miss.
# A non-zero exit here means some trial failed or hit an infrastructure error; judging that is
# the gate's job, so only a run that wrote no results stops the script.
"$nab" run --tasks tasks --agent nab-agent --model "replay:$cassette" --trials 1 --out "$out/run" \
  || echo "nab run exited $?; gating its results" >&2
[ -s "$out/run/results.jsonl" ] || { echo "the run wrote no results: see the output above" >&2; exit 2; }
"$nab" compare --baseline "$baseline" --candidate "$out/run" --out "$out/compare.html"
status=0
"$nab" gate --baseline "$baseline" --candidate "$out/run" --config ci/gate.yaml \
  --junit "$out/gate-junit.xml" --markdown "$out/gate-summary.md" || status=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$out/gate-summary.md" >> "$GITHUB_STEP_SUMMARY"; fi
exit "$status"
