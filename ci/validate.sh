#!/usr/bin/env bash
# The suite check CI runs: every field valid, every oracle passes, every null agent and
# known-wrong solution fails. Extra arguments go to `nab validate` (e.g. -j 2, task ids).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p nab-harness
exec ./target/release/nab validate --tasks tasks "$@"
