#!/bin/bash
# Known wrong: the oracle, except that the snapshot reader accepts only the new version:
# the 0.4 format's code path (no test in the crate covers it once its header changed) is
# gone, so last night's snapshots no longer load.
# Files it writes (whole, over the workspace's):
#   src/commands/keys/expire.rs
#   src/commands/keys/mod.rs
#   src/commands/keys/persist.rs
#   src/commands/keys/rename.rs
#   src/commands/keys/ttl.rs
#   src/commands/mod.rs
#   src/commands/strings/set.rs
#   src/engine.rs
#   src/persist/aof.rs
#   src/persist/snapshot.rs
#   src/store/db.rs
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
