"""Per-key ordered delivery (relay.PerKey): a key's events one at a time in Seq order,
retries keeping their place, a waiting key holding up no other key, keyless events
concurrent, Workers still the bound, concurrent publishers following Seq; and the default
unchanged. Every interleaving is forced with gates in the sink and a fake clock."""

import collections

from relayprobe import WAIT, pause, seqs

UNAVAILABLE = "unavailable"

# The tests are in the order that catches the known-wrong solutions soonest (`nab validate`
# stops a check that must fail at its first failing test); each stands alone.


def fails(fail, message="", **match):
    return dict(match, fail=fail, message=message)


def test_per_key_stress_with_failures(probe):
    probe.new(workers=6, ordering="per_key", dead_letter=True, retry={"max_attempts": 3},
              sink={"yield": True, "random": {"seed": 42, "permanent_below": 3, "unavailable_below": 30,
                                              "message": "410 gone"}})
    events = []
    for i in range(12):
        events += [("cust-%02d" % k, "update") for k in range(30)]
        events += [("", "ping")] * 3
    rcs = probe.publish_batch(events)
    by_key = collections.defaultdict(list)
    for (key, _), rc in zip(events, rcs):
        if key:
            by_key[key].append(rc)
    probe.drained()
    t = probe.trace()
    t.no_violations()
    t.at_most(6)
    calls = collections.Counter(c.id for c in t.ends)
    last_err = {}
    for c in t.ends:
        last_err[c.id] = c.err
    dead = probe.dead_letters()
    assert len(set(dead)) == len(dead), "dead-lettered twice: %s" % [d for d in dead if dead.count(d) > 1][:5]
    dead_set = set(dead)
    for rc, r in zip(rcs, probe.records([rc.id for rc in rcs])):
        want_state = "dead" if last_err.get(rc.id) is not None else "delivered"
        assert (r["state"] == want_state and r["attempts"] == calls[rc.id]
                and (rc.id in dead_set) == (want_state == "dead")), (
            "%s: record %s after %s attempts (dead-lettered %s); the sink saw %d calls, last error %s"
            % (rc.id, r["state"], r["attempts"], rc.id in dead_set, calls[rc.id], last_err.get(rc.id)))
    for key, key_rcs in by_key.items():
        firsts = [c for c in t.key_starts(key) if c.endswith("#1")]
        assert firsts == seqs(key_rcs), "key %s: first attempts %s, want %s" % (key, firsts, seqs(key_rcs))
    probe.finish()


def test_per_key_concurrent_publishers_follow_seq(probe):
    # A store that is slow to accept every third event, so that publishers overtake each
    # other unless numbering, recording and submitting are one step.
    probe.new(workers=4, ordering="per_key", store={"accept_every": 3, "accept_sleep_ms": 2})
    goroutines, each = 8, 30
    got = probe.publish_concurrent(goroutines, each, "hot", "tick")
    errors = [r.get("error") for r in got if r.get("error") is not None]
    assert not errors, "publish: %s" % errors[0]
    assert len(got) == goroutines * each, "%d receipts for %d events" % (len(got), goroutines * each)
    seen = set()
    for r in got:
        assert isinstance(r.get("seq"), int) and isinstance(r.get("id"), str), "receipt %r" % (r,)
        assert r["seq"] not in seen, "seq %d handed out twice" % r["seq"]
        seen.add(r["seq"])
    for r, rec in zip(got, probe.records([r["id"] for r in got])):
        assert rec["seq"] == r["seq"], "%s: receipt seq %d, record seq %s" % (r["id"], r["seq"], rec["seq"])
    probe.drained()
    t = probe.trace()
    t.no_violations()
    for i in range(1, goroutines * each + 1):
        assert i in seen, "seq %d missing" % i
    want = ["%d#1" % i for i in range(1, goroutines * each + 1)]
    assert t.key_starts("hot") == want, "hot calls out of seq order: %s" % t.key_starts("hot")
    probe.finish()


def test_per_key_giving_up_releases_the_key(probe):
    probe.new(workers=3, ordering="per_key", dead_letter=True, retry={"max_attempts": 2},
              sink={"rules": [fails(UNAVAILABLE, type="always.fails"),
                              fails("permanent", "422 unprocessable", type="rejected")]})
    a1, a2, a3, a4 = probe.publish_batch([("k", "always.fails"), ("k", "ok"), ("k", "rejected"), ("k", "ok")])
    probe.drained()
    t = probe.trace()
    t.no_violations()
    want = ["%d#1" % a1.seq, "%d#2" % a1.seq, "%d#1" % a2.seq, "%d#1" % a3.seq, "%d#1" % a4.seq]
    assert t.key_starts("k") == want, "calls %s, want %s" % (t.key_starts("k"), want)
    assert probe.dead_letters() == [a1.id, a3.id], "dead letters %s, want %s" % (probe.dead_letters(), [a1.id, a3.id])
    bad = []
    for rid, want in [(a1.id, "dead/2"), (a2.id, "delivered/1"), (a3.id, "dead/1"), (a4.id, "delivered/1")]:
        r = probe.record(rid)
        got = "%s/%s" % (r["state"], r["attempts"])
        if got != want:
            bad.append("%s: %s, want %s" % (rid, got, want))
    assert not bad, "\n".join(bad)
    probe.finish()


def test_per_key_retry_backoff_holds_only_its_key(probe):
    probe.new(workers=2, fake_clock=True, ordering="per_key", retry={"max_attempts": 3, "backoff_ms": 60_000},
              sink={"rules": [fails(UNAVAILABLE, id="evt-000001", attempt_is=1)]})
    a1 = probe.publish("acct-9", "invoice.created")
    probe.wait("clock_pending", "a retry scheduled on the clock", n=1)
    a2, a3, *others = probe.publish_batch([("acct-9", "invoice.paid"), ("acct-9", "invoice.closed")]
                                          + [("acct-%d" % (i % 5), "invoice.created") for i in range(10)])
    others = [rc.id for rc in others]
    probe.wait("succeeded", "other keys delivered during acct-9's backoff", ids=others)
    t = probe.trace()
    assert t.succeeded(*others), "other keys delivered during acct-9's backoff"
    assert not t.started(a2.id) and not t.started(a3.id), (
        "acct-9's later events were attempted during the first one's backoff: %s" % t.key_starts("acct-9"))
    probe.advance(60_000)
    probe.drained()
    t = probe.trace()
    t.no_violations()
    want = ["%d#1" % a1.seq, "%d#2" % a1.seq, "%d#1" % a2.seq, "%d#1" % a3.seq]
    assert t.key_starts("acct-9") == want, "acct-9 calls %s, want %s" % (t.key_starts("acct-9"), want)
    probe.finish()


def test_per_key_events_without_key_stay_concurrent(probe):
    probe.new(workers=3, ordering="per_key")
    probe.hold("evt-000001")
    first = probe.publish("", "ping")
    probe.wait("started", "first keyless event reaches the sink", ids=[first.id])
    second, third = probe.publish_batch([("", "ping")] * 2)
    probe.wait("succeeded", "keyless events delivered while another keyless event hangs", ids=[second.id, third.id])
    probe.release("evt-000001")
    probe.drained()
    probe.trace().ended_before([second.id, third.id], first.id)
    probe.finish()


def test_unordered_is_still_the_default(probe):
    # No Ordering in the Options at all: the zero value.
    probe.new(workers=3)
    probe.hold("evt-000001")
    a1 = probe.publish("order-1", "order.created")
    probe.wait("started", "first event reaches the sink", ids=[a1.id])
    a2 = probe.publish("order-1", "order.paid")
    probe.wait("succeeded", "same-key event delivered concurrently without PerKey", ids=[a2.id])
    probe.release("evt-000001")
    probe.drained()
    probe.trace(check_keys=False).ended_before([a2.id], a1.id)
    probe.finish()


def test_per_key_order_with_many_workers(probe):
    probe.new(workers=8, ordering="per_key", sink={"yield": True})
    events = [("order-%d" % k, "order.updated") for i in range(25) for k in range(12)]
    by_key = collections.defaultdict(list)
    for (key, _), rc in zip(events, probe.publish_batch(events)):
        by_key[key].append(rc)
    probe.drained()
    t = probe.trace()
    t.no_violations()
    t.at_most(8)
    for key, rcs in by_key.items():
        assert t.key_starts(key) == seqs(rcs), "key %s: calls %s, want %s" % (key, t.key_starts(key), seqs(rcs))
    probe.finish()


def test_per_key_retry_keeps_its_place(probe):
    probe.new(workers=4, ordering="per_key", retry={"max_attempts": 4},
              sink={"rules": [fails(UNAVAILABLE, id="evt-000001", attempt_below=3)]})
    probe.hold("evt-000001")
    a1, a2, a3, b1 = probe.publish_batch([("order-1", "order.created"), ("order-1", "order.paid"),
                                          ("order-1", "order.shipped"), ("order-2", "order.created")])
    probe.wait("succeeded", "order-2 delivered while order-1's first event is held", ids=[b1.id])
    probe.release("evt-000001")
    probe.drained()
    t = probe.trace()
    t.no_violations()
    t.ended_before([b1.id], a1.id)
    want = ["%d#1" % a1.seq, "%d#2" % a1.seq, "%d#3" % a1.seq, "%d#1" % a2.seq, "%d#1" % a3.seq]
    got = t.key_starts("order-1")
    assert got == want, "order-1 calls (seq#attempt) %s, want %s" % (got, want)
    r = probe.record(a1.id)
    assert r["state"] == "delivered" and r["attempts"] == 3, "first event: %s" % r
    probe.finish()


def test_per_key_held_key_does_not_hold_up_others(probe):
    probe.new(workers=3, ordering="per_key")
    probe.hold("evt-000001")
    a1 = probe.publish("tenant-a", "sync")
    probe.wait("started", "first event reaches the sink", ids=[a1.id])
    rcs = probe.publish_batch([("tenant-a", "sync")] * 9 + [("tenant-%d" % (i % 15), "sync") for i in range(30)]
                              + [("", "ping")] * 5)
    waiting, others = rcs[:9], [rc.id for rc in rcs[9:]]
    probe.wait("succeeded", "other keys delivered while tenant-a's first event hangs", ids=others)
    t = probe.trace()
    assert t.succeeded(*others), "other keys delivered while tenant-a's first event hangs"
    for rc in waiting:
        assert not t.started(rc.id), "%s attempted while an earlier tenant-a event was still being delivered" % rc.id
    probe.release("evt-000001")
    probe.drained()
    t = probe.trace()
    t.no_violations()
    t.at_most(3)
    t.ended_before(others, a1.id)
    want = seqs([a1] + waiting)
    assert t.key_starts("tenant-a") == want, "tenant-a calls %s, want %s" % (t.key_starts("tenant-a"), want)
    probe.finish()


def test_per_key_workers_still_bound_deliveries(probe):
    probe.new(workers=3, ordering="per_key")
    held = ["evt-%06d" % i for i in range(1, 6)]
    probe.hold(*held)
    probe.publish_batch([("key-%d" % i, "sync") for i in range(4)] + [("", "ping")])
    probe.wait("started_count", "three held deliveries in progress", n=3)
    pause(50)
    n = probe.trace().started_count()
    assert n == 3, "%d deliveries in progress at once with Workers: 3" % n
    probe.release(*held)
    probe.drained()
    t = probe.trace()
    t.at_most(3)
    assert t.succeeded(*held), "the held deliveries were made once released"
    probe.finish()
