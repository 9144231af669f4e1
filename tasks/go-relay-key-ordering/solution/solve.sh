#!/bin/bash
# The oracle. Per-key ordering lives in the dispatcher (internal/dispatch/ordering.go): a
# key has a lane while one of its events is queued, being attempted or waiting for a retry;
# later events of the key wait in the lane and the finished event hands the key on. A
# retry is pushed back as the key's current event, so it keeps its place, and a waiting
# key holds no worker. finish() records the outcome and hands the key on before it counts
# the event as done (Drain waited for the count only, which dropped before the store
# write). Publish numbers, records and submits under one lock, so the dispatcher sees each
# key's events in Seq order. Plumbing: relay.Options.Ordering (relay.Unordered/PerKey,
# aliases of dispatch's), the config's delivery.ordering, Config.ServiceOptions.
set -euo pipefail
cd /workspace
cp -r /nab/solution/files/. /workspace/
