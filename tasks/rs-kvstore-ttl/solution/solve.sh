#!/bin/bash
# Oracle. The keyspace knows the engine's time (Db::set_now before every command) and every
# accessor hides and reclaims keys at or past their deadline; insert (a replacing write)
# clears the deadline, in-place changes keep it, remove/take forget it and RENAME moves it.
# SET gains NX|XX with EX|PX|KEEPTTL, the EXPIRE family gains PEXPIRE, EXPIREAT and
# PEXPIREAT with checked arithmetic (a deadline not in the future deletes the key), TTL
# rounds half up, PTTL and PERSIST are new. Snapshots are version 2 (an `expire <key> <ms>`
# line after a record, expired keys left out; version 1 still loads, due keys dropped on
# load). Log lines carry the time they ran (`@<ms> <command>`) and replay runs each command
# at that time, so the replayed keyspace is the writer's; lines without a time (0.4 logs)
# run at the replaying engine's time.
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
