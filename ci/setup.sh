#!/usr/bin/env bash
# Installs what nab needs on a fresh Debian/Ubuntu machine and builds the base image.
# Idempotent: a second run installs nothing new and reuses the image (tagged by recipe hash).
set -euo pipefail
cd "$(dirname "$0")/.."

ci/deps.sh

cargo build --release -p nab-harness -p nab-agent
./target/release/nab image build
