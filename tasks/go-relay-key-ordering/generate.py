#!/usr/bin/env python3
"""Rebuilds the generated parts of go-relay-key-ordering from the hand-written ones.

- tests/probes/workspace/: copies of the workspace's go.mod and its own *_test.go files.
  The verifier's build step puts them back over the agent's copies before it builds the
  probe and type-checks the tests (`go vet`), so a go.mod edit (a replace, a new
  requirement) changes nothing and the shipped tests must still compile; what they assert
  is asserted by tests/test_workspace_packages.py on the probe's observations.
- wrong/<name>/files/: each known-wrong solution is the oracle (solution/files/) with a
  few exact edits (each `old` must occur exactly once), plus a solve.sh that copies its
  files over the workspace like the oracle's does.

Run from anywhere: python3 tasks/go-relay-key-ordering/generate.py
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WS = os.path.join(HERE, "workspace")
SOL = os.path.join(HERE, "solution", "files")


def copy_workspace_tests():
    out = os.path.join(HERE, "tests", "probes", "workspace")
    shutil.rmtree(out, ignore_errors=True)
    for root, dirs, files in os.walk(WS):
        dirs.sort()
        for f in sorted(files):
            if f.endswith("_test.go"):
                rel = os.path.relpath(os.path.join(root, f), WS)
                dst = os.path.join(out, rel)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(os.path.join(root, f), dst)
    shutil.copyfile(os.path.join(WS, "go.mod"), os.path.join(out, "go.mod"))


def read(rel):
    for base in (SOL, WS):
        p = os.path.join(base, rel)
        if os.path.exists(p):
            with open(p) as fh:
                return fh.read()
    raise SystemExit(f"no file {rel}")


# (file, old, new): exact replacements applied to the oracle's version of file.
WRONG = {
    # The cheapest shortcut: one worker when ordered. Same-key events can no longer
    # overlap, but a hanging key stops everything, and a retry still goes to the back
    # of the queue behind the key's later events.
    "single-worker": {
        "why": "PerKey runs one worker and no lanes: a hanging or backing-off key holds up every other key, and a retry goes to the back of the queue behind its key's later events",
        "edits": [
            ("internal/relay/relay.go", "\tif o.Clock == nil {\n", "\tif o.Ordering == PerKey {\n\t\to.Workers = 1\n\t}\n\tif o.Clock == nil {\n"),
            ("internal/dispatch/ordering.go", "\tif !d.ordered(it) {\n\t\treturn true\n\t}\n", "\tif true {\n\t\treturn true\n\t}\n"),
            ("internal/dispatch/ordering.go", "func (d *Dispatcher) release(it queue.Item) {\n\tif !d.ordered(it) {", "func (d *Dispatcher) release(it queue.Item) {\n\tif true {"),
        ],
    },
    # The decoy: syncx.KeyedMutex around the sink call. Workers that pick up later events
    # of a busy key block on its mutex (enough of them and no other key moves), Go's
    # mutex does not hand over in arrival order, and a retry re-queued at the back lets
    # the key's next event take the mutex first.
    "keyed-mutex": {
        "why": "per-key syncx.KeyedMutex around the sink call: workers wait on a busy key's mutex (other keys starve), mutex hand-over is not FIFO, retries lose their place",
        "edits": [
            ("internal/dispatch/ordering.go", "\tif !d.ordered(it) {\n\t\treturn true\n\t}\n", "\tif true {\n\t\treturn true\n\t}\n"),
            ("internal/dispatch/ordering.go", "func (d *Dispatcher) release(it queue.Item) {\n\tif !d.ordered(it) {", "func (d *Dispatcher) release(it queue.Item) {\n\tif true {"),
            ("internal/dispatch/dispatcher.go", "\tlanes map[string]*lane\n", "\tlanes map[string]*lane\n\tkeyMu syncx.KeyedMutex\n"),
            ("internal/dispatch/worker.go", "func (d *Dispatcher) attempt(it queue.Item) {\n", "func (d *Dispatcher) attempt(it queue.Item) {\n\tif d.ordered(it) {\n\t\td.keyMu.Lock(it.Event.Key)\n\t\tdefer d.keyMu.Unlock(it.Event.Key)\n\t}\n"),
        ],
    },
    # Sharding: every key is pinned to one worker by a hash and that worker makes all its
    # attempts itself (waiting out the backoff on the clock). Order holds, but keys that
    # share a worker wait for each other: one hanging key holds up its whole shard.
    "shard-by-key": {
        "why": "keys pinned to workers by hash, retries made in place by the same worker: order holds, but a hanging or backing-off key holds up every key of its shard",
        "edits": [
            ("internal/dispatch/ordering.go", "\tif !d.ordered(it) {\n\t\treturn true\n\t}\n", "\tif true {\n\t\treturn true\n\t}\n"),
            ("internal/dispatch/ordering.go", "func (d *Dispatcher) release(it queue.Item) {\n\tif !d.ordered(it) {", "func (d *Dispatcher) release(it queue.Item) {\n\tif true {"),
            ("internal/dispatch/ordering.go", "import (\n\t\"fmt\"\n", "import (\n\t\"context\"\n\t\"fmt\"\n\t\"hash/fnv\"\n"),
            ("internal/dispatch/ordering.go", "// ordered reports", '''// shardOf is the worker that owns a key.
func (d *Dispatcher) shardOf(key string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return int(h.Sum32() % uint32(len(d.shards)))
}

// workShard delivers the items of one shard, each to its end, retries included.
func (d *Dispatcher) workShard(q *queue.FIFO) {
	defer d.workers.Done()
	for {
		it, err := q.Pop(context.Background())
		if err != nil {
			return
		}
		for {
			err := d.deliver(it)
			d.stats.attempts.Inc()
			if err == nil {
				d.finish(it, nil)
				break
			}
			d.record(d.cfg.Store.Attempted(it.Event.ID, it.Attempt, err))
			delay, again := d.cfg.Retry.Next(it.Attempt, err)
			if !again {
				d.finish(it, err)
				break
			}
			if delay > 0 {
				wake := make(chan struct{})
				d.cfg.Clock.AfterFunc(delay, func() { close(wake) })
				<-wake
			}
			it.Attempt++
		}
	}
}

// ordered reports'''),
            ("internal/dispatch/dispatcher.go", "\tlanes map[string]*lane\n", "\tlanes map[string]*lane\n\tshards []*queue.FIFO\n"),
            ("internal/dispatch/dispatcher.go", "\td.started = true\n", "\td.started = true\n\tif d.cfg.Ordering == PerKey {\n\t\tfor i := 0; i < d.cfg.Workers; i++ {\n\t\t\tq := queue.NewFIFO()\n\t\t\td.shards = append(d.shards, q)\n\t\t\td.workers.Add(1)\n\t\t\tgo d.workShard(q)\n\t\t}\n\t}\n"),
            ("internal/dispatch/dispatcher.go", "\tif err := d.q.Push(it); err != nil {\n\t\tif d.ordered(it) {", "\tif d.ordered(it) && len(d.shards) > 0 {\n\t\treturn d.shards[d.shardOf(e.Key)].Push(it)\n\t}\n\tif err := d.q.Push(it); err != nil {\n\t\tif d.ordered(it) {"),
            ("internal/dispatch/dispatcher.go", "\td.q.Close()\n", "\td.q.Close()\n\tfor _, q := range d.shards {\n\t\tq.Close()\n\t}\n"),
        ],
    },
    # Lanes, each run by a goroutine of its own that makes the key's attempts itself
    # (waiting out backoffs on the clock): ordered and no key holds up another, but the
    # worker pool no longer bounds how many deliveries run at once.
    "lane-goroutines": {
        "why": "a goroutine per busy key delivers its events outside the worker pool: ordered, but Workers no longer bounds the deliveries in progress",
        "edits": [
            ("internal/dispatch/ordering.go", "\td.lanes[it.Event.Key] = &lane{}\n\treturn true\n}\n", """\td.lanes[it.Event.Key] = &lane{}
	go d.runLane(it)
	return false
}

// runLane delivers the events of one key in order, retries included, until the lane
// is empty.
func (d *Dispatcher) runLane(it queue.Item) {
	for {
		for {
			err := d.deliver(it)
			d.stats.attempts.Inc()
			if err == nil {
				d.finish(it, nil)
				break
			}
			d.record(d.cfg.Store.Attempted(it.Event.ID, it.Attempt, err))
			delay, again := d.cfg.Retry.Next(it.Attempt, err)
			if !again {
				d.finish(it, err)
				break
			}
			if delay > 0 {
				wake := make(chan struct{})
				d.cfg.Clock.AfterFunc(delay, func() { close(wake) })
				<-wake
			}
			it.Attempt++
		}
		d.mu.Lock()
		l := d.lanes[it.Event.Key]
		if l == nil || len(l.waiting) == 0 {
			delete(d.lanes, it.Event.Key)
			d.mu.Unlock()
			return
		}
		it = l.waiting[0]
		l.waiting = l.waiting[1:]
		d.mu.Unlock()
	}
}
"""),
            ("internal/dispatch/ordering.go", "func (d *Dispatcher) release(it queue.Item) {\n\tif !d.ordered(it) {", "func (d *Dispatcher) release(it queue.Item) {\n\tif true {"),
        ],
    },
    # Lanes, but a failed event goes to the back of its own lane (a "fair" retry): the
    # key's next event overtakes it.
    "retry-behind-key": {
        "why": "lanes, but a failed attempt is re-queued behind its key's waiting events, so later events of the key overtake it",
        "edits": [
            ("internal/dispatch/worker.go", "\tif delay <= 0 {\n\t\terr := d.q.Push(next)", "\tif l := d.lanes[next.Event.Key]; d.ordered(next) && l != nil && len(l.waiting) > 0 {\n\t\tfirst := l.waiting[0]\n\t\tl.waiting = append(l.waiting[1:], next)\n\t\tnext = first\n\t}\n\tif delay <= 0 {\n\t\terr := d.q.Push(next)"),
        ],
    },
    # The whole feature, but finish() still counts the event done before it writes the
    # outcome: the workspace's tests pass, Drain can return with outcomes unrecorded.
    "drain-before-store": {
        "why": "the feature without the Drain fix: the event is counted done before its outcome is written, so Drain returns with records still pending",
        "edits": [
            ("internal/dispatch/worker.go", "\tdefer d.pending.Done()\n\tif err == nil {", "\td.pending.Done()\n\tif err == nil {"),
        ],
    },
    # The whole feature, but Publish numbers events outside the lock: two concurrent
    # publishers can submit a key's events out of Seq order.
    "publish-race": {
        "why": "the feature, but Publish assigns Seq before taking the lock that orders submission: concurrent publishers of one key submit out of Seq order",
        "edits": [
            ("internal/relay/relay.go", "\ts.publish.Lock()\n\tdefer s.publish.Unlock()\n\te.ID = s.ids.Next()\n\te.Seq = s.seq.Add(1)\n\te.Accepted = s.clock.Now()\n\tif err := s.store.Accept(e); err != nil {\n\t\treturn Receipt{}, fmt.Errorf(\"recording %s: %w\", e.ID, err)\n\t}\n",
             "\te.ID = s.ids.Next()\n\te.Seq = s.seq.Add(1)\n\te.Accepted = s.clock.Now()\n\tif err := s.store.Accept(e); err != nil {\n\t\treturn Receipt{}, fmt.Errorf(\"recording %s: %w\", e.ID, err)\n\t}\n\ts.publish.Lock()\n\tdefer s.publish.Unlock()\n"),
        ],
    },
    # The feature, but a failed attempt during Close is still given up on a goroutine of
    # its own, as the workspace does, and Close does not wait for it: Close returns with
    # that event still pending.
    "close-async-give-up": {
        "why": "the feature, but an attempt that fails while closing is given up on a goroutine of its own and Close does not wait for it: Close returns with that event still pending",
        "edits": [
            ("internal/dispatch/worker.go", "\t\td.mu.Unlock()\n\t\td.finish(next, ErrClosed)\n", "\t\td.mu.Unlock()\n\t\tgo d.finish(next, ErrClosed)\n"),
            ("internal/dispatch/dispatcher.go", "\t_ = d.pending.Wait(context.Background())\n", ""),
        ],
    },
    # The config accepts any ordering value: a typo silently means unordered.
    "config-lenient": {
        "why": "delivery.ordering values other than unordered and per_key are taken as unordered instead of being a configuration error",
        "edits": [
            ("internal/config/load.go", "\treturn relay.Unordered, fmt.Errorf(\"delivery.ordering: %q is not \\\"unordered\\\" or \\\"per_key\\\"\", c.Delivery.Ordering)\n", "\treturn relay.Unordered, nil\n"),
        ],
    },
    # No lanes: a worker that pops an event whose key another event owns puts it back at
    # the end of the queue. No two calls of a key overlap and a retry keeps the key, but
    # the waiting events rotate through the queue, so whichever comes up first once the
    # key is free goes next, not the one with the lowest Seq.
    "requeue-busy-key": {
        "why": "a worker that pops an event of a busy key pushes it back to the end of the queue: the key's waiting events rotate, so the first to come up once the key is free goes next, not the next in Seq order",
        "edits": [
            ("internal/dispatch/ordering.go", "\tif !d.ordered(it) {\n\t\treturn true\n\t}\n\tif l, busy", "\tif true {\n\t\treturn true\n\t}\n\tif l, busy"),
            ("internal/dispatch/ordering.go", "func (d *Dispatcher) release(it queue.Item) {\n\tif !d.ordered(it) {", """func (d *Dispatcher) release(it queue.Item) {
	if d.ordered(it) {
		d.mu.Lock()
		if d.owner[it.Event.Key] == it.Event.ID {
			delete(d.owner, it.Event.Key)
		}
		d.mu.Unlock()
	}
	if true {"""),
            ("internal/dispatch/ordering.go", "// ordered reports", """// claim makes the item's event the owner of its key, unless another event of the key
// owns it: then the item must go back to the queue for later.
func (d *Dispatcher) claim(it queue.Item) bool {
	if !d.ordered(it) {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if owner, busy := d.owner[it.Event.Key]; busy && owner != it.Event.ID {
		return false
	}
	d.owner[it.Event.Key] = it.Event.ID
	return true
}

// ordered reports"""),
            ("internal/dispatch/dispatcher.go", "\tlanes map[string]*lane\n", "\tlanes map[string]*lane\n\towner map[string]string\n"),
            ("internal/dispatch/dispatcher.go", "\t\tlanes:  make(map[string]*lane),\n", "\t\tlanes:  make(map[string]*lane),\n\t\towner:  make(map[string]string),\n"),
            ("internal/dispatch/worker.go", "import (\n\t\"context\"\n\t\"fmt\"\n", "import (\n\t\"context\"\n\t\"fmt\"\n\t\"runtime\"\n"),
            ("internal/dispatch/worker.go", "\t\td.stats.queued.Set(int64(d.q.Len()))\n\t\td.attempt(it)\n", "\t\td.stats.queued.Set(int64(d.q.Len()))\n\t\tif !d.claim(it) {\n\t\t\tif err := d.q.Push(it); err != nil {\n\t\t\t\td.finish(it, err)\n\t\t\t}\n\t\t\truntime.Gosched()\n\t\t\tcontinue\n\t\t}\n\t\td.attempt(it)\n"),
        ],
    },
    # Ordering always on: the option is ignored.
    "always-ordered": {
        "why": "orders every keyed event whatever the option says: the default (Unordered) changes behaviour",
        "edits": [
            ("internal/dispatch/ordering.go", "\treturn d.cfg.Ordering == PerKey && it.Event.Key != \"\"\n", "\treturn it.Event.Key != \"\"\n"),
        ],
    },
    # The empty key treated as one more key: keyless events are serialized.
    "keyless-serialized": {
        "why": "treats the empty key as a key: events without a key are delivered one at a time",
        "edits": [
            ("internal/dispatch/ordering.go", "\treturn d.cfg.Ordering == PerKey && it.Event.Key != \"\"\n", "\treturn d.cfg.Ordering == PerKey\n"),
        ],
    },
    # Deleting the path the workspace's tests do not cover for ordered events: no
    # retries at all in PerKey mode (the first failure is final), so nothing can overtake.
    "no-retries-when-ordered": {
        "why": "gives up on an ordered event at its first failure (no retries in PerKey mode), so no retry can be overtaken",
        "edits": [
            ("internal/dispatch/worker.go", "\tdelay, again := d.cfg.Retry.Next(it.Attempt, err)\n\tif !again {", "\tdelay, again := d.cfg.Retry.Next(it.Attempt, err)\n\tif !again || d.ordered(it) {"),
        ],
    },
}

SOLVE = """#!/bin/bash
# Known-wrong (generated by ../../generate.py from the oracle): {why}.
set -euo pipefail
cd /workspace
cp -r /nab/solution/files/. /workspace/
"""


def build_wrong():
    out_root = os.path.join(HERE, "wrong")
    shutil.rmtree(out_root, ignore_errors=True)
    oracle_files = []
    for root, _, files in os.walk(SOL):
        for f in files:
            oracle_files.append(os.path.relpath(os.path.join(root, f), SOL))
    for name, spec in sorted(WRONG.items()):
        texts = {rel: read(rel) for rel in oracle_files}
        for rel, old, new in spec["edits"]:
            text = texts.get(rel) or read(rel)
            n = text.count(old)
            if n != 1:
                sys.exit(f"{name}: {rel}: expected 1 occurrence of {old[:50]!r}, found {n}")
            texts[rel] = text.replace(old, new)
        base = os.path.join(out_root, name)
        for rel, text in sorted(texts.items()):
            dst = os.path.join(base, "files", rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "w") as fh:
                fh.write(text)
        solve = os.path.join(base, "solve.sh")
        with open(solve, "w") as fh:
            fh.write(SOLVE.format(why=spec["why"]))
        os.chmod(solve, 0o755)


if __name__ == "__main__":
    copy_workspace_tests()
    build_wrong()
