"""Series identity in tidemark (README.md, "Series identity", "Storage", "Queries and
roll-ups"): a label with an empty value is the same as no label, label order does not
matter, for the text format and for `Db::append`, whatever the number of shards; the
fingerprint is equal for equal label sets and differs for different ones; a roll-up counts
each series once."""
import math
import random

import pytest

from tm import display, key

SHARDS = [1, 2, 3, 4, 8]
T0 = 1_772_442_000_000  # 2026-03-02T09:00:00Z, on every window boundary used here


def esc(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def line(metric, pairs, value, ts):
    body = ",".join('%s="%s"' % (k, esc(v)) for k, v in pairs)
    return "%s{%s} %s %d" % (metric, body, repr(float(value)), ts)


FORMS = [
    [("job", "api"), ("instance", "web-3")],
    [("env", ""), ("instance", "web-3"), ("job", "api")],
    [("instance", "web-3"), ("zone", ""), ("job", "api"), ("env", "")],
    [("job", "api"), ("a", ""), ("instance", "web-3")],
]


@pytest.mark.parametrize("shards", SHARDS)
def test_append_with_empty_labels_joins_one_series(probe, shards):
    db = probe.db(shards)
    for i, pairs in enumerate(FORMS * 3):
        assert db.append("mem_bytes", pairs, T0 + i * 1000, 100 + i) is None
    assert db.count() == 1, "Db::append made %d series of one: %r" % (db.count(), db.series())
    got = db.select('mem_bytes{job="api"}')
    assert [k for k, _ in got] == ['mem_bytes{instance="web-3",job="api"}']
    assert got[0][1] == [(T0 + i * 1000, 100.0 + i) for i in range(12)]
    assert db.stats()["created"] == 1


@pytest.mark.parametrize("shards", SHARDS)
def test_text_with_empty_labels_joins_one_series(probe, shards):
    db = probe.db(shards)
    lines = []
    for i in range(20):
        ts = T0 + i * 15_000
        # the primary collector, then the edge collector with the same moment and value
        lines.append(line("up", FORMS[0], 1, ts))
        lines.append(line("up", FORMS[1 + i % 3], 1, ts))
    r = db.ingest("\n".join(lines) + "\n")
    assert (r["accepted"], r["replaced"], r["out_of_order"]) == (20, 20, [])
    assert db.series() == [('up{instance="web-3",job="api"}', 20)]


@pytest.mark.parametrize("shards", [1, 4, 8])
def test_the_forms_share_one_newest_sample(probe, shards):
    db = probe.db(shards)
    assert db.append("req", FORMS[0], T0 + 5000, 10) is None
    err = db.append("req", FORMS[1], T0 + 4000, 11)
    assert err is not None and err[1], "an older sample in the other form was not refused: %r" % (err,)
    assert db.append("req", FORMS[2], T0 + 5000, 12) is None
    s = db.stats()
    assert (s["appended"], s["replaced"], s["out_of_order"], s["created"]) == (1, 1, 1, 1)
    assert db.select("req") == [('req{instance="web-3",job="api"}', [(T0 + 5000, 12.0)])]


@pytest.mark.parametrize("shards", [1, 5, 8])
def test_values_that_differ_stay_apart(probe, shards):
    db = probe.db(shards)
    sets = [
        [("job", "api")],
        [("job", "api"), ("env", "prod")],
        [("job", "api"), ("env", "staging")],
        [("job", "web")],
        [],
        [("env", "")],
    ]
    for i, pairs in enumerate(sets):
        assert db.append("up", pairs, T0 + i, i) is None
    assert db.count() == 5
    assert sorted(k for k, _ in db.series()) == sorted(
        ['up{job="api"}', 'up{env="prod",job="api"}', 'up{env="staging",job="api"}', 'up{job="web"}', "up{}"]
    )


def random_sets(rng, n):
    names = ["a", "b", "c", "env", "zone"]
    out = []
    for _ in range(n):
        pairs = [(k, rng.choice(["", "", "x", "y", "w\"q"])) for k in names if rng.random() < 0.7]
        rng.shuffle(pairs)
        out.append(pairs)
    return out


@pytest.mark.parametrize("shards", [3, 8])
def test_many_label_sets_through_both_paths(probe, shards):
    rng = random.Random(3600 + shards)
    sets = random_sets(rng, 150)
    db = probe.db(shards, chunk=4)
    expected = {}
    for i, pairs in enumerate(sets):
        ts = T0 + i * 1000
        k = key("m", pairs)
        expected.setdefault(k, []).append(pairs)
        if i % 2:
            assert db.append("m", pairs, ts, i) is None
        else:
            r = db.ingest(line("m", pairs, i, ts) + "\n")
            assert (r["accepted"], r["out_of_order"]) == (1, [])
    want = sorted((display("m", list(k[1])), len(v)) for k, v in expected.items())
    assert db.count() == len(expected)
    assert sorted(db.series()) == want


def test_fingerprints_of_equal_sets_are_equal(probe):
    groups = [
        [[("job", "api")], [("job", "api"), ("env", "")], [("zone", ""), ("job", "api"), ("a", "")]],
        [[], [("env", "")], [("a", ""), ("b", ""), ("c", "")]],
        [[("b", "2"), ("a", "1")], [("a", "1"), ("c", ""), ("b", "2")]],
    ]
    for g in groups:
        fps = {probe.fingerprint(p) for p in g}
        assert len(fps) == 1, "equal label sets %r got different fingerprints" % (g,)


def test_fingerprints_of_different_sets_differ(probe):
    rng = random.Random(36)
    seen = {}
    for pairs in random_sets(rng, 400):
        seen.setdefault(key("m", pairs)[1], pairs)
    fps = {}
    for canon, pairs in seen.items():
        fps.setdefault(probe.fingerprint(pairs), []).append(canon)
    clashes = [v for v in fps.values() if len(v) > 1]
    assert not clashes, "different label sets share a fingerprint: %r" % (clashes[:3],)
    assert len(seen) > 100


def scenario(db, edge_by_api):
    """Four instances every 15 s for an hour; from 09:20 web-3 is also scraped by the edge
    collector (same moments and values, `env=""`), through the text format or the API."""
    rng = random.Random(7)
    mem = {i: 800_000_000 + 50_000_000 * n for n, i in enumerate(["web-1", "web-2", "web-3", "web-4"])}
    req = {i: 10_000 * (n + 1) for n, i in enumerate(mem)}
    truth = {}
    lines = []
    for k in range(240):
        ts = T0 + k * 15_000
        for inst in mem:
            mem[inst] += rng.randint(-2_000_000, 2_000_000)
            req[inst] = rng.randint(0, 50) if (inst == "web-2" and k == 130) else req[inst] + rng.randint(100, 300)
            labels = [("job", "api"), ("instance", inst)]
            truth.setdefault(("mem", inst), []).append((ts, mem[inst]))
            truth.setdefault(("req", inst), []).append((ts, req[inst]))
            lines.append(line("mem", labels, mem[inst], ts))
            lines.append(line("req", labels, req[inst], ts))
            if inst == "web-3" and ts >= T0 + 20 * 60_000:
                edge = [("env", ""), ("instance", inst), ("job", "api")]
                if edge_by_api:
                    db.ingest("\n".join(lines) + "\n")
                    lines = []
                    assert db.append("mem", edge, ts, mem[inst]) is None
                    assert db.append("req", edge, ts, req[inst]) is None
                else:
                    lines.append(line("mem", edge, mem[inst], ts))
                    lines.append(line("req", edge, req[inst], ts))
    if lines:
        db.ingest("\n".join(lines) + "\n")
    return truth


def windows(truth, metric, step, fn):
    out = {}
    for (m, inst), samples in truth.items():
        if m != metric:
            continue
        for w in range(T0, T0 + 3_600_000, step):
            vals = [v for t, v in samples if w <= t < w + step]
            if vals:
                out.setdefault(w, []).append(fn(vals, step))
    return out


def avg(vals, step):
    return float(sum(vals)) / len(vals)


def rate(vals, step):
    inc = 0
    for a, b in zip(vals, vals[1:]):
        inc += (b - a) if b >= a else b
    return inc * 1000.0 / step


@pytest.mark.parametrize("shards,edge_by_api", [(4, False), (4, True), (1, False), (7, True)])
def test_rollup_counts_each_instance_once(probe, shards, edge_by_api):
    db = probe.db(shards, chunk=32)
    truth = scenario(db, edge_by_api)
    step = 900_000
    rows = db.rollup('mem{job="api"}', "avg", "sum", ["job"], step, T0, T0 + 3_600_000)
    want = windows(truth, "mem", step, avg)
    assert [(s, g, n) for s, g, _, n in rows] == [(w, '{job="api"}', 4) for w in sorted(want)]
    for (s, _, v, _), w in zip(rows, sorted(want)):
        assert math.isclose(v, math.fsum(want[w]), rel_tol=1e-12), (s, v, math.fsum(want[w]))
    rows = db.rollup("req", "rate", "sum", ["job"], step, T0, T0 + 3_600_000)
    want = windows(truth, "req", step, rate)
    assert [(s, n) for s, _, _, n in rows] == [(w, 4) for w in sorted(want)]
    for (s, _, v, _), w in zip(rows, sorted(want)):
        assert math.isclose(v, math.fsum(want[w]), rel_tol=1e-12), (s, v, math.fsum(want[w]))
    rows = db.rollup("mem", "last", "count", ["instance"], step, T0 + 1_800_000, T0 + 2_700_000)
    assert [(g, v, n) for _, g, v, n in rows] == [('{instance="web-%d"}' % i, 1.0, 1) for i in range(1, 5)]


@pytest.mark.parametrize("shards", [2, 4])
def test_grouping_by_a_label_some_series_leave_empty(probe, shards):
    db = probe.db(shards)
    db.ingest(
        "\n".join(
            [
                line("up", [("job", "a"), ("env", "")], 1, T0),
                line("up", [("job", "b")], 1, T0),
                line("up", [("job", "c"), ("env", "prod")], 1, T0),
                line("up", [("job", "a")], 1, T0 + 1000),
            ]
        )
        + "\n"
    )
    assert db.append("up", [("job", "d"), ("env", "")], T0, 1) is None
    rows = db.rollup("up", "count", "sum", ["env"], 60_000, T0, T0 + 60_000)
    assert [(g, v, n) for _, g, v, n in rows] == [("{}", 4.0, 3), ('{env="prod"}', 1.0, 1)]


def test_export_writes_each_sample_once(probe):
    db = probe.db(4)
    for i in range(6):
        assert db.append("up", FORMS[i % 4], T0 + 1000 * (i // 2), i) is None
    assert db.export() == "".join('up{instance="web-3",job="api"} %d %d\n' % (2 * j + 1, T0 + 1000 * j) for j in range(3))
