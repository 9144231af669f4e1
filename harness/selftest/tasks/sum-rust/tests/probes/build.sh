#!/bin/bash
# Builds the probe with the workspace's crate, offline, as the sandbox user.
set -euo pipefail
rm -rf /tmp/probe && cp -r /nab/probes/probe /tmp/probe && cd /tmp/probe
exec env -i PATH=/usr/bin:/bin HOME=/tmp CARGO_HOME=/tmp/cargo-home CARGO_TARGET_DIR=/tmp/probe-target \
  CARGO_NET_OFFLINE=true cargo build --offline --quiet
