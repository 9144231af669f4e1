#!/bin/bash
# Builds the probe of the hidden tests with the agent's crate, as the sandbox user (a
# `user: sandbox` verify step: a compile error fails the trial, `build_failed`), in a
# scratch folder: /workspace/src (and nothing else of the workspace) with the hidden
# manifest, and the probe (/nab/probes/tmprobe.rs) as the crate's one binary. Cargo runs
# with a clean environment, offline, with its home and target folder under /tmp (the root
# file system is read-only). The tests (pytest, as the verifier user) then run the probe
# through the broker: /tmp/nab-probe.
set -euo pipefail
B=/tmp/nab-build
rm -rf "$B" /tmp/nab-target /tmp/nab-cargo-home /tmp/nab-probe
mkdir -p "$B/probe" /tmp/nab-target /tmp/nab-cargo-home
if [ ! -f /workspace/src/lib.rs ]; then
  echo "no /workspace/src/lib.rs" >&2
  exit 1
fi
cp -R --no-preserve=mode /workspace/src "$B/src"
cp /nab/probes/tidemark.Cargo.toml "$B/Cargo.toml"
cp /nab/probes/tmprobe.rs "$B/probe/main.rs"
cd "$B"
env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 CARGO_HOME=/tmp/nab-cargo-home \
  CARGO_TARGET_DIR=/tmp/nab-target CARGO_NET_OFFLINE=true \
  cargo build --offline --quiet --bin nab_probe
cp /tmp/nab-target/debug/nab_probe /tmp/nab-probe
