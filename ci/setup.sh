#!/usr/bin/env bash
# Installs what nab needs on a fresh Debian/Ubuntu machine and builds the base image.
# Idempotent: a second run installs nothing new and reuses the image (tagged by recipe hash).
# Each stage says what it does and roughly how long it takes on a 2-core machine, so a first
# run never looks like a hang; the task images are built later, by `nab run`, while the
# trials on the base image run.
set -euo pipefail
cd "$(dirname "$0")/.."

t0=$(date +%s)
stage() {
  echo "== [$1/3] $2 (at $(( $(date +%s) - t0 )) s)" >&2
}

stage 1 "system packages a run needs (Debian's; under a minute when they are missing)"
ci/deps.sh --run

stage 2 "release build of nab, nab-agent and nab-relay (about 5 min on 2 cores the first time; cargo shows its progress)"
# Only the two binaries a run uses: not the agent's MCP test server, nor the server side of
# the MCP SDK that only it needs (nab-agent's default feature `mcp-fixture`).
cargo build --release -p nab-harness -p nab-agent -p nab-relay --bin nab --bin nab-agent --bin nab-relay --no-default-features

stage 3 "the base image (about 1 min the first time; then reused)"
./target/release/nab image build
echo "== setup done in $(( $(date +%s) - t0 )) s" >&2
