#!/usr/bin/env bash
# Replays the recorded cassette through nab-agent on the whole suite, then gates the run
# against the stored baseline. Any CI system can call this; ci/github-workflow.yml does.
#
#   ci/gate.sh [CASSETTE_DIR] [BASELINE_RUN_DIR]
#
# NAB_GATE_JOBS=N sets how many trials run at once (default 2); NAB=path/to/nab uses an
# existing build (its nab-agent must sit beside it) instead of building.
# Outputs (kept as CI artifacts): target/nab-ci/run/ (results.jsonl, results.parquet,
# summary.json, report.html), compare.html, gate-junit.xml, gate-summary.md.
# Exit status: 0 gate passed, 1 gate failed, 2 the gate could not run (bad input), 4 the gate
# was inconclusive (no pass-rate rule had enough tasks or trials to run).
# When the agent's requests changed (a new prompt, a new tool), the gate fails with its
# `replay_miss` rule: run ci/rerecord.sh and commit ci/cassette and ci/baseline with the change.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
cassette="${1:-ci/cassette}"
baseline="${2:-ci/baseline}"
jobs="${NAB_GATE_JOBS:-2}"
out="target/nab-ci"
nab="${NAB:-./target/release/nab}"

[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "NAB_GATE_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
[ -d "$cassette" ] || { echo "no cassette at $cassette: record one with ci/rerecord.sh" >&2; exit 2; }
[ -f "$baseline/results.jsonl" ] || { echo "no baseline run at $baseline (needs results.jsonl): ci/rerecord.sh writes one" >&2; exit 2; }

[ -n "${NAB:-}" ] || cargo build --release -p nab-harness -p nab-agent
rm -rf "$out/run"
mkdir -p "$out"
# Deterministic: the replay provider answers only recorded requests and fails on a miss.
# A non-zero exit here means some trial failed or hit an infrastructure error; judging that is
# the gate's job, so only a run that wrote no results stops the script.
run_started=$(date +%s)
"$nab" run --tasks tasks --agent nab-agent --model "replay:$cassette" --trials 1 -j "$jobs" --out "$out/run" \
  || echo "nab run exited $?; gating its results" >&2
run_s=$(( $(date +%s) - run_started ))
[ -s "$out/run/results.jsonl" ] || { echo "the run wrote no results: see the output above" >&2; exit 2; }
"$nab" compare --baseline "$baseline" --candidate "$out/run" --out "$out/compare.html"
status=0
"$nab" gate --baseline "$baseline" --candidate "$out/run" --config ci/gate.yaml \
  --junit "$out/gate-junit.xml" --markdown "$out/gate-summary.md" || status=$?
wall=$(( $(date +%s) - started ))
printf '\ngate wall time: %ss (suite run %ss at -j %s)\n' "$wall" "$run_s" "$jobs" | tee -a "$out/gate-summary.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$out/gate-summary.md" >> "$GITHUB_STEP_SUMMARY"; fi
exit "$status"
