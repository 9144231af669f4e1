"""Drain returns nil only once every event accepted before it has its final state recorded
in the store (events waiting behind their key count), or the context's error; after Close
returns no accepted event is pending. In both modes."""

from relayprobe import WAIT, pause

UNAVAILABLE = "unavailable"


# The tests are in the order that catches the known-wrong solutions soonest (`nab validate`
# stops a check that must fail at its first failing test); each stands alone.


def fails(fail, message="", **match):
    return dict(match, fail=fail, message=message)


def drain_records_outcomes(probe, ordering):
    # A store that takes 3 ms to record each outcome.
    probe.new(workers=4, ordering=ordering, store={"final_ms": 3},
              sink={"rules": [fails("permanent", "400 bad request", type="rejected")]})
    events = [("k%d" % (i % 3), "rejected" if i % 5 == 4 else "ok") for i in range(24)]
    ids = [rc.id for rc in probe.publish_batch(events)]
    probe.drained()
    probe.all_final(ids)
    n = probe.pending()
    assert n == 0, "Pending() = %s after Drain" % n
    probe.finish()


def test_close_leaves_nothing_pending_unordered(probe):
    """Close while events are queued behind one in progress: the worker delivers them; the
    last one fails, is not retried any more (the relay is closing) and must be dead,
    recorded by a store that is slow to record it, by the time Close returns."""
    probe.new(workers=1, store={"dead_ms": 300}, dead_letter=True, retry={"max_attempts": 5},
              sink={"rules": [fails(UNAVAILABLE, type="fails")]})
    probe.hold("evt-000001")
    ids = [rc.id for rc in probe.publish_batch([("order-0", "ok"), ("order-1", "ok"), ("order-7", "fails")])]
    failing = ids[2]
    probe.wait("started", "first event reaches the sink", ids=[ids[0]])
    # A probe event accepted before Close took effect is delivered at once (only Dead is
    # slow) after the failing event, and must be final too.
    close_and_publish(probe, ids)
    probe.all_final(ids)
    r = probe.record(failing)
    assert r["is_dead"] is True, "the event that failed during Close: %s, want dead" % r["state"]
    dead = probe.dead_letters()
    assert dead == [failing], "dead letters %s, want [%s]" % (dead, failing)
    probe.finish()


def test_drain_waits_for_recorded_outcomes_unordered(probe):
    drain_records_outcomes(probe, "unordered")


def test_drain_waits_for_recorded_outcomes_per_key(probe):
    drain_records_outcomes(probe, "per_key")


def drain_waits_for_the_store_write(probe, ordering, failing):
    """The store holds the write of the last event's outcome: Drain must not return while it
    is held, however long that is (a second here), and returns nil once it is done."""
    probe.new(workers=2, ordering=ordering, store={"gate_id": "evt-000004"},
              sink={"rules": [fails("permanent", "409 conflict", type="rejected")]})
    events = [("acct-1", "ok")] * 3 + [("acct-1", "rejected" if failing else "ok")]
    ids = [rc.id for rc in probe.publish_batch(events)]
    probe.wait("store_entered", "the outcome of evt-000004 was written")
    probe.drain_async(WAIT)
    r = probe.drain_wait(1000)
    assert r.get("done") is False, (
        "Drain returned (%s) while the outcome of evt-000004 was still being written to the store" % r.get("error"))
    probe.store_open()
    r = probe.drain_wait(WAIT + 1000)
    assert r.get("done") is True, "Drain did not return once the store write was done"
    assert r.get("error") is None, "Drain: %s" % r.get("error")
    probe.all_final(ids)
    probe.finish()


def test_drain_waits_for_the_store_write_unordered(probe):
    drain_waits_for_the_store_write(probe, "unordered", False)


def test_drain_waits_for_the_store_write_per_key(probe):
    drain_waits_for_the_store_write(probe, "per_key", True)


def test_drain_counts_events_waiting_behind_their_key(probe):
    probe.new(workers=2, ordering="per_key", store={"final_ms": 2})
    probe.hold("evt-000001")
    ids = [rc.id for rc in probe.publish_batch([("batch-1", "step")] * 4)]
    probe.wait("started", "first event reaches the sink", ids=[ids[0]])
    probe.drain_async(WAIT)
    pause(10)
    probe.release("evt-000001")
    r = probe.drain_wait(WAIT + 1000)
    assert r.get("done") is True and r.get("error") is None, "Drain: %s" % (r.get("error") if r.get("done") else "did not return")
    probe.all_final(ids)
    probe.trace().no_violations()
    probe.finish()


def test_drain_times_out_while_a_key_hangs(probe):
    probe.new(workers=2, ordering="per_key")
    probe.hold("evt-000001")
    probe.publish_batch([("k", "a"), ("k", "b")])
    r = probe.drain(timeout_ms=30)
    assert r.get("deadline") is True, "Drain with a hanging key: %s, want context.DeadlineExceeded" % r.get("error")
    probe.release("evt-000001")
    probe.drained()
    probe.finish()


def close_and_publish(probe, ids):
    """Close on its own goroutine; Publish until it refuses; then the held first event goes
    on, and Close must return nil within WAIT."""
    probe.close_async()
    ids += [rc.id for rc in probe.publish_until_closed("probe")]
    pause(20)
    probe.release("evt-000001")
    r = probe.close_wait(WAIT)
    assert r.get("done") is True, "Close did not return"
    assert r.get("error") is None, "Close: %s" % r.get("error")


def test_close_leaves_nothing_pending(probe):
    probe.new(workers=2, ordering="per_key")
    probe.hold("evt-000001")
    ids = [rc.id for rc in probe.publish_batch([("k", "step")] * 5 + [("other", "step")])]
    probe.wait("started", "first event reaches the sink", ids=[ids[0]])
    close_and_publish(probe, ids)
    probe.all_final(ids)
    probe.trace().no_violations()
    probe.finish()


def test_close_leaves_nothing_pending_per_key_with_retries(probe):
    """Close with PerKey: a key whose current event hangs, with events waiting behind it; a
    key whose current event waits for a retry on the clock, with events behind it; a key
    with nothing waiting. Once Close returns, every accepted event is final."""
    probe.new(workers=2, fake_clock=True, ordering="per_key", retry={"max_attempts": 3, "backoff_ms": 3_600_000},
              sink={"rules": [fails(UNAVAILABLE, type="fails.once", attempt_is=1)]})
    probe.hold("evt-000001")
    ids = [rc.id for rc in probe.publish_batch([("hangs", "step")] * 3)]
    probe.wait("started", "first event reaches the sink", ids=[ids[0]])
    ids.append(probe.publish("retries", "fails.once").id)
    probe.wait("clock_pending", "a retry scheduled on the clock", n=1)
    ids += [rc.id for rc in probe.publish_batch([("retries", "step")] * 3 + [("alone", "step")])]
    close_and_publish(probe, ids)
    probe.all_final(ids)
    probe.trace().no_violations()
    probe.finish()
