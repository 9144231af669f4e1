#!/bin/bash
# Known wrong: fixes exactly what the bug reports show (EXISTS/DBSIZE/KEYS/INCR see expired
# keys: every due key is purged before each command; DEL forgets the deadline) and stops:
# no SET EX/PX/KEEPTTL, no PEXPIRE/EXPIREAT/PEXPIREAT/PTTL/PERSIST, overwrites keep the old
# deadline, RENAME drops it, snapshots and the log still lose deadlines. The crate's own
# tests pass.
# Files it writes (whole, over the workspace's):
#   src/engine.rs
#   src/store/db.rs
set -euo pipefail
cp -R /nab/solution/files/. /workspace/
