#!/usr/bin/env bash
# Measures nab-agent's footprint, history overhead and cold start (issue 18) against a mock
# model on a Unix socket; see benches/README.md for what is measured and the figures.
#
#   benches/measure-agent.sh [RUNS]     (default 25 one-line runs, plus 5 with 8 MB)
#
# Builds the release binary first. Set NAB_AGENT=/path/to/nab-agent to measure another build.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-25}"
if [[ -z "${NAB_AGENT:-}" ]]; then
    cargo build --release --quiet -p nab-agent --bin nab-agent
    NAB_AGENT="$(cargo metadata --format-version 1 --no-deps \
        | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release/nab-agent"
fi
cargo run --quiet -p nab-benches --example measure_agent -- "$NAB_AGENT" "$runs"
