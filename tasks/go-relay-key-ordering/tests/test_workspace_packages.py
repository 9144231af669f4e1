"""The workspace's own tests, as shipped ("keep the workspace's tests passing"), across the
boundary: the probe runs each test's scenario on the agent's packages (units.go) and
reports what came back; the expected values and every assertion are here. The shipped test
files themselves are put back over the agent's and type-checked (`go vet`) by the build
step. As before, these run without a race requirement (only the hidden tests ran under the
race detector)."""

import json

import pytest

NS = 1
MS = 1_000_000 * NS
SECOND = 1000 * MS


@pytest.fixture
def unit(probe):
    """unit(name, **fields) -> the observations of one shipped test's scenario, after its
    clean-ups (Close of what it started, as its t.Cleanup did) returned in time."""

    def run(name, **fields):
        r = probe.call("unit", name=name, timeout=45, **fields)
        cleanup(probe)
        return r

    return run


def cleanup(probe):
    results = probe.call("cleanup", timeout=60).get("results")
    assert isinstance(results, list), "cleanup answered %r" % (results,)
    assert "did not return" not in results, "a Close in a clean-up did not return: %s" % results


# --- internal/api ------------------------------------------------------------------------

def http(probe, method, path, body=""):
    r = probe.call("http", method=method, path=path, body=body, timeout=20)
    assert r.get("error") is None, "%s %s: %s" % (method, path, r.get("error"))
    return r["status"], r["body"]


def api_server(probe):
    r = probe.call("api_start")
    assert r.get("error") is None, "relay.New: %s" % r.get("error")


def test_api_publish_status_drain(probe):
    api_server(probe)
    status, body = http(probe, "POST", "/v1/events", '{"key":"order-7","type":"order.paid","payload":{"total":12}}')
    assert status == 202, "status %d" % status
    rc = json.loads(body)
    assert rc.get("seq") == 1 and rc.get("id") == "evt-000001", body
    status, _ = http(probe, "POST", "/v1/drain")
    assert status == 204, "drain %d" % status
    status, body = http(probe, "GET", "/v1/events/" + rc["id"])
    rec = json.loads(body)
    assert rec.get("state") == "delivered" and rec.get("attempts") == 1 and rec.get("key") == "order-7", body
    n = probe.call("api_sink_count")["events"]
    assert n == 1, "sink got %d events" % n
    cleanup(probe)


def test_api_publish_refusals(probe):
    api_server(probe)
    bad = []
    for body, want in [('{"type":"Bad Type"}', 422), ('{"type":"a","x":1}', 400), ("not json", 400)]:
        status, _ = http(probe, "POST", "/v1/events", body)
        if status != want:
            bad.append("%s: %d, want %d" % (body, status, want))
    assert not bad, "\n".join(bad)
    # The three refusals above used up the burst of tenant "-".
    status, _ = http(probe, "POST", "/v1/events", '{"type":"a"}')
    assert status == 429, "rate limit: %d" % status
    status, _ = http(probe, "GET", "/v1/events/evt-999999")
    assert status == 404, "unknown id: %d" % status
    cleanup(probe)


# --- internal/clock ----------------------------------------------------------------------

def test_clock_fake_fires_due_timers(unit):
    r = unit("clock_fake_fires_due_timers")
    assert r["stop"] is True, "Stop on a pending timer returned false"
    assert r["first"] == 1, "got timer %s, want 1" % r["first"]
    assert r["pending"] == 1, "pending = %s, want 1" % r["pending"]
    assert r["second"] == 2, "got timer %s, want 2" % r["second"]


# --- internal/config ---------------------------------------------------------------------

def test_config_parse_defaults(unit):
    r = unit("config_parse", text='{"sink": {"url": "http://hooks.internal/relay"}}')
    assert r["error"] is None, r["error"]
    assert (r["workers"], r["listen"], r["retry_max_attempts"], r["sink_timeout_ms"]) == (4, ":8080", 5, 10000), r
    assert (r["opt_workers"], r["opt_retry_max_attempts"], r["opt_id_prefix"]) == (4, 5, "evt"), r
    assert r["opt_backoff_2_ns"] == SECOND, "second backoff %s ns" % r["opt_backoff_2_ns"]


def test_config_parse_refuses(unit):
    accepted = []
    for text in [
        '{"workers": 0.5}',
        '{"workers": 1000}',
        '{"wokers": 2}',
        '{"sink": {"url": "ftp://x"}}',
        '{"retry": {"base_ms": 10, "max_ms": 5}}',
        '{"retry": {"jitter": 1.5}}',
        '{"delivery": {"attempt_timeout_ms": -1}}',
        '{"log_level": "loud"}',
        "{} {}",
    ]:
        if unit("config_parse", text=text)["error"] is None:
            accepted.append(text)
    assert not accepted, "accepted: %s" % accepted


def test_config_shipped_config_parses(unit):
    r = unit("config_shipped")
    assert r["read_error"] is None, "config/relay.json: %s" % r["read_error"]
    assert r["parse_error"] is None, "config/relay.json: %s" % r["parse_error"]
    err = r["load_missing_error"]
    assert err is not None and "missing.json" in err, "Load of a missing file: %s" % err


# --- internal/dispatch -------------------------------------------------------------------

def test_dispatch_delivers_everything(unit):
    r = unit("dispatch_delivers_everything")
    assert r["fixture_error"] is None and not r["submit_errors"], r
    assert r["drain_error"] is None, "drain: %s" % r["drain_error"]
    assert r["delivered"] == 50, "delivered %s of 50" % r["delivered"]


def test_dispatch_retries_after_backoff(unit):
    r = unit("dispatch_retries_after_backoff")
    assert r["fixture_error"] is None and r["submit_error"] is None, r
    assert r["waits"] == [True, True], "a retry scheduled on the clock: %s" % r["waits"]
    assert r["drain_error"] is None, "drain: %s" % r["drain_error"]
    rec = r["record"]
    assert (rec.get("is_delivered"), rec.get("attempts"), rec.get("last_error")) == (True, 3, "503"), rec


def test_dispatch_gives_up(unit):
    r = unit("dispatch_gives_up")
    assert r["fixture_error"] is None and not r["submit_errors"], r
    assert r["drain_error"] is None, "drain: %s" % r["drain_error"]
    bad = []
    for rid, attempts in {"perm": 1, "flaky": 2, "panic": 2}.items():
        rec = r["records"][rid]
        if rec.get("is_dead") is not True or rec.get("attempts") != attempts:
            bad.append("%s: %s" % (rid, rec))
    assert not bad, "\n".join(bad)
    assert len(r["dead"]) == 3, "dead letters: %s" % r["dead"]


def test_dispatch_close_cancels_retries(unit):
    r = unit("dispatch_close_cancels_retries")
    assert r["fixture_error"] is None and r["submit_error"] is None, r
    assert r["wait"] is True, "a retry scheduled on the clock: not within 5 s"
    assert r["close_error"] is None, "Close: %s" % r["close_error"]
    assert r["drain_error"] is None, "drain: %s" % r["drain_error"]
    assert r["record"].get("is_dead") is True, r["record"]
    assert r["late_closed"] is True, "submit after close: %s" % r["late_error"]


def test_dispatch_drain_honours_context(unit):
    r = unit("dispatch_drain_honours_context")
    assert r["fixture_error"] is None and r["submit_error"] is None, r
    short = r["short_drain"]
    assert short.get("done") is True and short.get("deadline") is True, "drain: %s" % short
    assert r["drain_error"] is None, "drain: %s" % r["drain_error"]


# --- internal/event ----------------------------------------------------------------------

def test_event_validate(unit):
    r = unit("event_validate")
    assert r["valid_error"] is None, "valid event refused: %s" % r["valid_error"]
    assert len(r["bad"]) == 6, r["bad"]
    bad = ["case %d: got %s, want ErrInvalid" % (i, b.get("error")) for i, b in enumerate(r["bad"]) if b.get("invalid") is not True]
    assert not bad, "\n".join(bad)


def test_event_clone_shares_nothing(unit):
    r = unit("event_clone_shares_nothing")
    assert r["payload"] == "x" and r["header"] == "1", "clone shares state with the original: %s" % r


def test_event_ids(unit):
    r = unit("event_ids")
    assert r["ids"] == ["evt-000001", "evt-000002"], "got %s" % r["ids"]


# --- internal/logx -----------------------------------------------------------------------

def test_logx_logfmt(unit):
    r = unit("logx_logfmt")
    want = 'ts=2024-01-02T03:04:05Z level=warn msg="retrying" attempt="2" id="evt-1"\n'
    assert r["text"] == want, "got %r" % r["text"]
    assert r["parse_warn_error"] is None, r["parse_warn_error"]


# --- internal/metrics --------------------------------------------------------------------

def test_metrics_registry_text(unit):
    r = unit("metrics_registry_text")
    assert r["same_counter"] is True, "same name, different counters"
    assert r["write_error"] is None, r["write_error"]
    want = ("# HELP relay_a a\n# TYPE relay_a gauge\nrelay_a -1\n"
            "# HELP relay_b_total b\n# TYPE relay_b_total counter\nrelay_b_total 3\n")
    assert r["text"] == want, "got\n%s" % r["text"]


def test_metrics_nil_registry(unit):
    assert unit("metrics_nil_registry")["returned"] is True


# --- internal/queue ----------------------------------------------------------------------

def test_queue_fifo_order(unit):
    r = unit("queue_fifo_order")
    assert not r["push_errors"], r["push_errors"]
    assert r["pop_error"] is None, r["pop_error"]
    assert r["got"] == [3, 1, 2], "got %s" % r["got"]


def test_queue_by_seq_order(unit):
    r = unit("queue_byseq_order")
    assert r["pop_error"] is None, r["pop_error"]
    assert (r["got"] or [])[:3] == [1, 2, 3], "got %s" % r["got"]


def test_queue_pop_waits_and_close(unit):
    r = unit("queue_pop_waits_and_close")
    for name in ("fifo", "byseq"):
        q = r[name]
        assert q["waiting_pop"] == {"done": True, "error": None}, "%s: %s" % (name, q["waiting_pop"])
        assert q["pop_after_close"].get("closed") is True, "%s: pop after close: %s" % (name, q["pop_after_close"])
        assert q["push_after_close"].get("closed") is True, "%s: push after close: %s" % (name, q["push_after_close"])
        assert q["pop_with_deadline_returned"] is True, "%s: Pop with a deadline did not return" % name


# --- internal/ratelimit ------------------------------------------------------------------

def test_ratelimit_limiter_per_key(unit):
    r = unit("ratelimit_per_key")
    assert r["first"] == [True, True, False, True], "calls: %s" % r["first"]
    assert r["after_a_second"] == [True, False], "refill by one token per second: %s" % r["after_a_second"]
    assert r["nil_allows"] is True, "nil limiter refused"


# --- internal/relay ----------------------------------------------------------------------

def test_relay_publish_assigns_id_and_seq(unit):
    r = unit("relay_publish_assigns_id_and_seq")
    assert r["new_error"] is None, r["new_error"]
    rcs = r["receipts"]
    assert [rc.get("seq") for rc in rcs] == [1, 2, 3], "receipts %s" % rcs
    assert r["drain_error"] is None, r["drain_error"]
    assert len(r["delivered_ids"] or []) == 3 and r["delivered_ids"][0] == "ord-000001", r["delivered_ids"]
    assert r["sink_events"] == 3, "delivered %s" % r["sink_events"]


def test_relay_publish_refuses(unit):
    r = unit("relay_publish_refuses")
    assert r["new_error"] is None, r["new_error"]
    assert r["invalid"]["is_invalid"] is True, "invalid: %s" % r["invalid"]["error"]
    assert r["close_error"] != "did not return", "Close did not return"
    assert r["after_close"]["is_closed"] is True, "closed: %s" % r["after_close"]["error"]
    assert r["no_sink_error"] is not None, "no sink accepted"


# --- internal/retry ----------------------------------------------------------------------

def test_retry_policy_stops_at_max_attempts(unit):
    r = unit("retry_policy_stops_at_max_attempts")
    bad = []
    for n in r["next"]:
        want = n["attempt"] in (1, 2)
        if n["retry"] is not want:
            bad.append("attempt %d: retry = %s, want %s" % (n["attempt"], n["retry"], want))
        if n["retry"] and n["delay_ns"] != SECOND:
            bad.append("attempt %d: delay %s ns" % (n["attempt"], n["delay_ns"]))
    assert [n["attempt"] for n in r["next"]] == [1, 2, 3, 4] and not bad, "\n".join(bad)


def test_retry_permanent_is_not_retried(unit):
    r = unit("retry_permanent_is_not_retried")
    assert r["permanent_retried"] is False, "permanent error retried"
    assert r["success_retried"] is False, "success retried"


def test_retry_exponential(unit):
    r = unit("retry_exponential")
    want = [w * MS for w in (100, 200, 400, 800, 1000, 1000)]
    assert r["delays_ns"] == want, "delays %s ns, want %s" % (r["delays_ns"], want)


def test_retry_jitter_stays_in_range(unit):
    r = unit("retry_jitter_stays_in_range")
    assert len(r["delays_ns"]) == 100
    out = [d for d in r["delays_ns"] if not 800 * MS <= d <= 1200 * MS]
    assert not out, "delays outside ±20%%: %s ns" % out[:5]


# --- internal/sink -----------------------------------------------------------------------

def test_sink_http_statuses(unit):
    r = unit("sink_http_statuses")
    ok = r["ok"]
    assert ok["error"] is None, ok["error"]
    assert (ok["seq"], ok["key"], ok["tenant"]) == ("7", "k", "t"), "headers: %s" % ok
    assert r["503"]["error"] is not None and r["503"]["permanent"] is False, "503: %s" % r["503"]
    assert r["400"]["permanent"] is True, "400: %s" % r["400"]


def test_sink_fanout_and_filter(unit):
    r = unit("sink_fanout_and_filter")
    assert r["error_y"] is None, r["error_y"]
    assert r["error_x"] is not None, "fanout hid a failure"
    assert (r["a"], r["b"]) == (2, 0), "a=%s b=%s" % (r["a"], r["b"])


# --- internal/store ----------------------------------------------------------------------

def test_store_memory_lifecycle(unit):
    r = unit("store_memory_lifecycle")
    assert r["accept_errors"] == [None, None], r["accept_errors"]
    assert r["attempted_error"] is None and r["delivered_error"] is None, r
    assert r["dead_again_error"] is not None, "a final record changed again"
    a = r["a"]
    assert (a.get("error"), a.get("is_delivered"), a.get("attempts"), a.get("last_error")) == (None, True, 2, "503"), a
    assert r["zz"]["not_found"] is True, r["zz"]
    assert len(r["all"] or []) == 2 and r["all"][0] == "b", r["all"]
    assert r["pending"] == ["b"], r["pending"]


def test_store_journal_lines(unit):
    lines = unit("store_journal_lines")["text"].strip().split("\n")
    assert len(lines) == 2 and '"op":"accept"' in lines[0] and '"error":"400"' in lines[1], lines


def test_store_parse_state(unit):
    r = unit("store_parse_state")
    assert len(r["states"]) == 3
    for s in r["states"]:
        assert s["error"] is None and s["same"] is True, s


# --- internal/syncx ----------------------------------------------------------------------

def test_syncx_keyed_mutex_separates_keys(unit):
    r = unit("syncx_keyed_mutex_separates_keys")
    assert r["other_key_locked"] is True, "another key's lock waited for key a"
    assert r["len"] == 0, "%s keys left" % r["len"]


def test_syncx_keyed_mutex_excludes(unit):
    assert unit("syncx_keyed_mutex_excludes")["n"] == 50


def test_syncx_pending_wait(unit):
    r = unit("syncx_pending_wait")
    assert r["idle_wait_error"] is None, r["idle_wait_error"]
    assert r["busy_wait_error"] is not None, "Wait returned nil with work outstanding"
    assert r["done_wait_error"] is None, r["done_wait_error"]
