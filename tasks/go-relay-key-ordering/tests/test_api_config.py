"""relayd's config selects the ordering (`delivery.ordering`: "per_key", "unordered" or
absent; anything else is an error) and ServiceOptions carries it; relay.Unordered is the
zero value and differs from relay.PerKey; the existing API is kept."""

PER_KEY, UNORDERED = "per_key", "unordered"


def test_config_ordering(probe):
    bad = []
    for text, want in [
        ('{"delivery": {"ordering": "per_key"}}', PER_KEY),
        ('{"delivery": {"ordering": "unordered", "attempt_timeout_ms": 50}}', UNORDERED),
        ('{"delivery": {"attempt_timeout_ms": 50}}', UNORDERED),
        ("{}", UNORDERED),
    ]:
        r = probe.call("config_ordering", text=text)
        if r.get("error") is not None:
            bad.append("%s: %s" % (text, r["error"]))
            continue
        got = PER_KEY if r.get("is_per_key") is True else UNORDERED if r.get("is_unordered") is True else r.get("value")
        if got != want:
            bad.append("%s: Ordering %s, want %s" % (text, got, want))
    for text in [
        '{"delivery": {"ordering": "fifo"}}',
        '{"delivery": {"ordering": "PER_KEY"}}',
        '{"delivery": {"ordering": 1}}',
    ]:
        if probe.call("config_ordering", text=text).get("error") is None:
            bad.append("%s: accepted" % text)
    assert not bad, "\n".join(bad)
    api = probe.call("api")
    assert api.get("per_key_is_unordered") is False, "Unordered and PerKey are the same value"
    assert api.get("zero_options_unordered") is True, "the zero Options are not Unordered"
    probe.finish()


def test_existing_api_kept(probe):
    # The probe's api.go names the exported API of the packages the change is about, as
    # shipped (compile-time assertions): the probe was built, so it is all there.
    api = probe.call("api")
    assert api.get("exported_errors_nil") == [False, False, False, False], (
        "an exported error is nil (relay, dispatch, queue, store): %s" % api.get("exported_errors_nil"))
    probe.finish()
