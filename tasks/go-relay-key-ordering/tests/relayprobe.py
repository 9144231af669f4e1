"""The runner's side of go-relay-key-ordering's probe (/nab/probes/relayprobe/).

The probe is a program built with the agent's module, under the race detector, as the
sandbox user (the `user: sandbox` step, /nab/probes/build.sh); the broker runs it, one
probe per test. It drives the relay as these objects ask (a service with a recording sink
whose calls can be held at a gate or made to fail, a fake clock, slow or gated stores) and
answers with what it saw: receipts, records, errors, whether a wait was met, and the log of
every sink call's start and end in the order they happened. Every assertion and expected
value is here, in the runner, as the verifier user: whether calls of one key overlapped or
went back in Seq, how many were in progress at once, each key's calls, the records.

The race detector can only watch from inside the probe: a test that needs it ends with
`finish()`, which requires the race detector's count of reports (an answer of the probe),
the probe's exit status (66 after a report) and its standard error (the reports) to all
say "no race" — and the test's observations must be right as well, so a silenced detector
alone passes nothing.
"""

import base64
import collections
import json
import time

import nabverify as nv

PROBE = "/tmp/nab-go/probe"
MODULE = "/tmp/nab-go/src"
# How long a wait for something that must happen may take (ms). A correct relay makes it
# happen at once; the limit only decides how long a broken one takes to fail.
WAIT = 5000

Receipt = collections.namedtuple("Receipt", "id seq")
Call = collections.namedtuple("Call", "id key seq n err")


class Probe:
    def __init__(self):
        self.proc = nv.spawn([PROBE], cwd=MODULE,
                             env={"GORACE": "halt_on_error=0 exitcode=66", "GOTRACEBACK": "all"})
        self.done = False

    def call(self, op, timeout=30.0, **fields):
        req = dict(fields, op=op)
        reply = self.proc.call_json(req, timeout=timeout)
        what = json.dumps(req)[:300]
        if not isinstance(reply, dict):
            raise AssertionError("the probe answered %r to %s" % (reply, what))
        if "panic" in reply:
            raise AssertionError("the code under test panicked on %s: %s\n%s"
                                 % (what, reply["panic"], str(reply.get("stack", ""))[-3000:]))
        if "probe_error" in reply:
            raise AssertionError("the probe refused %s: %s" % (what, reply["probe_error"]))
        return reply

    # --- the service -------------------------------------------------------------------

    def new(self, **options):
        r = self.call("new", **options)
        assert r.get("error") is None, "relay.New: %s" % r.get("error")

    def hold(self, *ids):
        for i in ids:
            self.call("hold", id=i)

    def release(self, *ids):
        for i in ids:
            self.call("release", id=i)

    def publish(self, key, typ, payload="{}"):
        fields = {"key": key, "type": typ}
        if payload is not None:
            fields["payload"] = payload
        return receipt(self.call("publish", **fields), "publish %s/%s" % (key, typ))

    def publish_batch(self, events, payload="{}"):
        """Publishes (key, type) pairs one after the other inside the probe."""
        fields = {"events": [list(e) for e in events]}
        if payload is not None:
            fields["payload"] = payload
        got = self.call("publish_batch", **fields).get("receipts")
        assert isinstance(got, list), "publish_batch answered %r" % (got,)
        out = [receipt(r, "publish %s/%s" % e) for r, e in zip(got, events)]
        assert len(out) == len(events), "%d of %d events published" % (len(out), len(events))
        return out

    def publish_concurrent(self, goroutines, each, key, typ):
        """[receipt or error answer]: `goroutines` goroutines publish `each` events at once."""
        got = self.call("publish_concurrent", goroutines=goroutines, each=each, key=key, type=typ).get("receipts")
        assert isinstance(got, list), "publish_concurrent answered %r" % (got,)
        return got

    def publish_until_closed(self, typ):
        """Publishes events until Publish refuses with relay.ErrClosed (within WAIT): the
        receipts of those accepted on the way."""
        r = self.call("publish_until_closed", type=typ, timeout_ms=WAIT, timeout=WAIT / 1000 + 15)
        assert r.get("refused") is True, "Publish refused after Close: not within %d ms (last: %r)" % (
            WAIT, r.get("error"))
        return [receipt(a, "publish %s" % typ) for a in r.get("accepted") or []]

    def wait(self, cond, what, ids=None, n=None):
        fields = {"cond": cond, "timeout_ms": WAIT}
        if ids is not None:
            fields["ids"] = list(ids)
        if n is not None:
            fields["n"] = n
        r = self.call("wait", timeout=WAIT / 1000 + 15, **fields)
        assert r.get("ok") is True, "%s: not within %d ms" % (what, WAIT)

    def drain(self, timeout_ms=WAIT):
        """Drain with a context of timeout_ms: {error, deadline, pending}."""
        r = self.call("drain", timeout_ms=timeout_ms, timeout=timeout_ms / 1000 + 15)
        return r

    def drained(self):
        """Drain must return nil within WAIT."""
        r = self.drain()
        assert r.get("error") is None, "Drain: %s (pending %s)" % (r.get("error"), r.get("pending"))

    def drain_async(self, timeout_ms=WAIT):
        self.call("drain_async", timeout_ms=timeout_ms)

    def drain_wait(self, ms):
        return self.call("drain_wait", ms=ms, timeout=ms / 1000 + 15)

    def close_async(self):
        self.call("close_async")

    def close_wait(self, ms=WAIT):
        return self.call("close_wait", ms=ms, timeout=ms / 1000 + 15)

    def advance(self, ms):
        self.call("advance", ms=ms)

    def store_open(self):
        self.call("store_open")

    def pending(self):
        return self.call("pending").get("pending")

    def records(self, ids):
        recs = self.call("status", ids=list(ids)).get("records")
        assert isinstance(recs, list) and len(recs) == len(ids), "status answered %r" % (recs,)
        for i, r in zip(ids, recs):
            assert isinstance(r, dict) and r.get("error") is None, "Status(%s): %s" % (i, r)
            assert r.get("id") == i, "Status(%s) is the record of %r" % (i, r.get("id"))
        return recs

    def record(self, rid):
        return self.records([rid])[0]

    def all_final(self, ids):
        bad = ["%s %s" % (r["id"], r.get("state")) for r in self.records(ids) if r.get("final") is not True]
        assert not bad, "%d events not final: %s" % (len(bad), bad)

    def dead_letters(self):
        dead = self.call("dead_letters").get("dead") or []
        return [d[0] for d in dead]

    def trace(self, check_keys=True):
        return Trace(self.call("trace").get("log"), check_keys)

    # --- the end -------------------------------------------------------------------------

    def finish(self, race=True):
        """The hidden tests' clean-up (Close, unless the test closed the service, must
        return within WAIT), then the probe's end: with `race`, no data race may have been
        reported."""
        r = self.call("finish", timeout_ms=WAIT, timeout=WAIT / 1000 + 15)
        if "done" in r:
            assert r["done"] is True, "Close did not return within %d ms" % WAIT
        self.end(r, race)

    def end(self, last, race):
        self.done = True
        res = self.proc.close()
        if not race:
            return
        stderr = base64.b64decode(res.get("stderr_b64") or "").decode("utf-8", "replace")
        assert "DATA RACE" not in stderr, "the race detector reported:\n%s" % stderr[-6000:]
        assert last.get("race_errors") == 0, "the race detector counted %r reports" % (last.get("race_errors"),)
        assert res.get("exit") == 0 and res.get("signal") is None, (
            "the probe ended with exit %s, signal %s (66: a data race)\n%s"
            % (res.get("exit"), res.get("signal"), stderr[-4000:]))

    def kill(self):
        if not self.done:
            self.done = True
            self.proc.close()


def receipt(r, what):
    assert isinstance(r, dict), "%s: answered %r" % (what, r)
    assert r.get("error") is None and isinstance(r.get("id"), str) and isinstance(r.get("seq"), int), (
        "%s: %s" % (what, r.get("error") or r))
    return Receipt(r["id"], r["seq"])


def seqs(receipts):
    return ["%d#1" % rc.seq for rc in receipts]


class Trace:
    """The sink's calls as the probe logged them (start and end, in the order they
    happened), and what the hidden tests' recording sink derived from them: calls of one
    non-empty key that overlapped or went back in Seq (with check_keys), and the most calls
    in progress at once."""

    def __init__(self, log, check_keys=True):
        assert isinstance(log, list), "the probe's call log: %r" % (log,)
        self.starts, self.ends, self.violations = [], [], []
        self.max_total = 0
        calls, inflight, last_seq, open_calls = {}, collections.Counter(), {}, set()
        total = 0
        self.index = []  # (kind, call) in log order
        for entry in log:
            assert isinstance(entry, list) and entry and entry[0] in ("start", "end"), "log entry %r" % (entry,)
            if entry[0] == "start":
                assert len(entry) == 5, "log entry %r" % (entry,)
                _, eid, key, seq, n = entry
                calls[eid] = calls.get(eid, 0) + 1
                assert n == calls[eid], "log entry %r: call %d of %s" % (entry, calls[eid], eid)
                if check_keys and key != "":
                    if inflight[key] > 0:
                        self.violations.append("key %s: %s (seq %d) called while an earlier call for the key was still running" % (key, eid, seq))
                    if seq < last_seq.get(key, 0):
                        self.violations.append("key %s: %s (seq %d) called after seq %d had been" % (key, eid, seq, last_seq[key]))
                    else:
                        last_seq[key] = seq
                inflight[key] += 1
                total += 1
                self.max_total = max(self.max_total, total)
                c = Call(eid, key, seq, n, None)
                self.starts.append(c)
                open_calls.add((eid, n))
            else:
                assert len(entry) == 6, "log entry %r" % (entry,)
                _, eid, key, seq, n, err = entry
                assert (eid, n) in open_calls, "log entry %r ends a call that did not start" % (entry,)
                open_calls.discard((eid, n))
                inflight[key] -= 1
                total -= 1
                c = Call(eid, key, seq, n, err)
                self.ends.append(c)
            self.index.append((entry[0], c))
        self.calls = calls

    def no_violations(self):
        n = len(self.violations)
        assert n == 0, "%d ordering violations, e.g.:\n%s" % (n, "\n".join(self.violations[:5]))

    def at_most(self, workers):
        assert self.max_total <= workers, "%d deliveries in progress at once with Workers: %d" % (self.max_total, workers)

    def started(self, eid):
        return self.calls.get(eid, 0) > 0

    def started_count(self):
        return len(self.starts)

    def succeeded(self, *ids):
        ok = {c.id for c in self.ends if c.err is None}
        return all(i in ok for i in ids)

    def key_starts(self, key):
        return ["%d#%d" % (c.seq, c.n) for c in self.starts if c.key == key]

    def position(self, kind, eid, n=None, ok=None):
        """Where in the log the first (or the n-th) call of eid started or ended (with ok:
        a call that succeeded)."""
        for i, (k, c) in enumerate(self.index):
            if k == kind and c.id == eid and n in (None, c.n) and (ok is None or (c.err is None) == ok):
                return i
        return None

    def ended_before(self, first, then):
        """Every call of the events `first` ended successfully before the first call of
        `then` ended."""
        limit = self.position("end", then, n=1)
        assert limit is not None, "%s's first call never ended" % then
        for eid in first:
            at = self.position("end", eid, ok=True)
            assert at is not None and at < limit, "%s was not delivered before %s's first call ended" % (eid, then)


def pause(ms):
    time.sleep(ms / 1000.0)
