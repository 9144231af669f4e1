"""Hidden checks: every series of an interval is exported with exactly the labels
README.md gives it (its tenant's labels, the line's tags, the tenant's relabel rules;
`job` from export.job; a histogram's `le` per bucket) and with its own values, whatever
else the capture holds and in whatever order its lines come. Each case runs one interval
in the probe (tallyprobe.py) and compares the whole export with the runner's model of
README.md (tally_model.py)."""

import difflib
import random

import pytest

import tally_model
import tallyprobe

BUCKETS = [0.05, 0.1, 0.25, 0.5, 1]


def check(config, records):
    want = tally_model.export(config, records)
    got = tallyprobe.run(config, records)
    if got != want:
        diff = "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(), "expected", "exported", lineterm="", n=1))
        raise AssertionError("the export differs from README.md's rules:\n" + diff[:6000])


def conf(tenants, job="tally", buckets=BUCKETS, form=None):
    c = {"export": {"job": job}, "histogram": {"buckets": buckets}, "tenants": tenants}
    if form:
        c["export"]["format"] = form
    return c


REPORTED = conf({
    "acme": {"labels": {"env": "prod", "region": "eu-west"}, "relabel": ["drop pod", "rename svc service"]},
    "globex": {"labels": {"env": "prod"}, "relabel": ["default tier standard"], "max_series": 200},
    "initech": {"labels": {"env": "staging", "team": "payments"}, "prefix": "initech_"},
})


def test_the_reported_interval_in_another_order():
    recs = [
        ("globex", "jobs.done:2|c|#queue:billing,tier:gold"),
        ("acme", "http.request.seconds:0.180|ms|#route:/checkout"),
        ("globex", "jobs.done:5|c|#queue:billing"),
        ("acme", "http.requests:1|c|#route:/checkout,method:POST,pod:web-2"),
        ("acme", "http.request.seconds:0.042|ms|#route:/cart"),
        ("globex", "jobs.done:3|c|#queue:reports"),
        ("acme", "http.requests:1|c|#route:/cart,method:GET,pod:web-1"),
        ("initech", "logins:1|c|@0.1|#method:sso"),
        ("acme", "queue.depth:12|g|#svc:mailer"),
        ("initech", "logins:1|c|#method:password"),
        ("acme", "http.request.seconds:0.031|ms|#route:/cart"),
        ("globex", "jobs.done:1|c|#queue:billing"),
        ("initech", "cache.hit.ratio:0.93|g"),
    ]
    check(REPORTED, recs)


def test_each_tag_value_keeps_its_own_series():
    tenants = {"acme": {"labels": {"env": "prod"}}, "solo": {}}
    recs = []
    for i in range(12):
        recs.append(("acme", "hits:1|c|#route:/r%d" % (i % 4)))
        recs.append(("acme", "up:%d|g|#zone:z%d" % (i, i % 3)))
        recs.append(("solo", "hits:2|c|#zone:z%d" % (i % 3)))
    check(conf(tenants), recs)


def test_tags_in_either_order():
    tenants = {"acme": {"labels": {"dc": "fra1", "env": "prod"}}}
    recs = []
    for i in range(6):
        recs.append(("acme", "hits:1|c|#zone:a%d,route:/x" % (i % 2)))
        recs.append(("acme", "hits:1|c|#route:/y,zone:b%d" % (i % 3)))
        recs.append(("acme", "hits:1|c|#zone:c%d" % (i % 2)))
    check(conf(tenants), recs)


@pytest.mark.parametrize("job", ["tally", ""], ids=["with-job", "no-job"])
def test_histogram_buckets_of_every_label_count(job):
    names = ["az", "cluster", "dc", "env", "host"]
    tenants = {"t%d" % n: {"labels": {k: "v%d" % n for k in names[:n]}} for n in range(0, 6)}
    recs = []
    for n in range(0, 6):
        for i, v in enumerate([0.03125, 0.0625, 0.375, 0.75, 3, 0.125]):
            recs.append(("t%d" % n, "latency:%s|ms" % v))
            recs.append(("t%d" % n, "size:%s|h|#a:%d" % (v, i % 2)))
    check(conf(tenants, job=job), recs)


def test_histograms_after_tags_and_rules():
    tenants = {
        "acme": {"labels": {"env": "prod"}, "relabel": ["default dc fra1"]},
        "beta": {"labels": {"dc": "ams", "env": "dev"}, "relabel": ["rename host instance", "set env test"]},
    }
    recs = []
    for i, v in enumerate([0.03125, 0.375, 0.0625, 0.75, 3, 0.5, 1]):
        recs.append(("acme", "rpc:%s|ms|#host:h%d" % (v, i % 2)))
        recs.append(("beta", "rpc:%s|ms|#host:h%d" % (v, i % 3)))
        recs.append(("beta", "rpc:%s|ms" % v))
    check(conf(tenants, buckets=[0.0625, 0.5, 1, 2.5]), recs)


def test_relabel_rules():
    tenants = {
        "acme": {"labels": {"env": "prod", "region": "eu"},
                 "relabel": ["default tier standard", "when tier=gold set support yes", "rename svc service", "drop pod"]},
        "beta": {"labels": {"env": "prod"}, "relabel": ["set env live", "default zone a"]},
    }
    recs = []
    for i in range(8):
        recs.append(("acme", "jobs:1|c"))
        recs.append(("acme", "jobs:1|c|#tier:gold"))
        recs.append(("acme", "jobs:1|c|#svc:s%d,pod:p%d" % (i % 2, i)))
        recs.append(("beta", "jobs:1|c|#zone:z%d" % (i % 3)))
        recs.append(("beta", "jobs:1|c"))
        recs.append(("beta", "jobs:1|c|#env:canary"))
    check(conf(tenants), recs)


def test_json_export():
    tenants = {"acme": {"labels": {"dc": "fra1", "env": "prod"}}}
    recs = []
    for i, v in enumerate([0.03125, 0.375, 3]):
        recs.append(("acme", "rpc:%s|ms" % v))
        recs.append(("acme", "hits:1|c|#zone:z%d" % (i % 2)))
    check(conf(tenants, form="json"), recs)


LABEL_NAMES = ["app", "az", "cluster", "dc", "env", "host", "method", "region", "route", "team", "tier", "zone"]
HIST_VALUES = [0.03125, 0.0625, 0.125, 0.375, 0.5, 0.75, 1.5, 3, 6]


def random_case(seed):
    rnd = random.Random(seed)
    tenants = {}
    for t in range(rnd.randint(2, 5)):
        labels = {n: rnd.choice(["a", "b", "prod", "x-1"]) for n in rnd.sample(LABEL_NAMES, rnd.randint(0, 5))}
        rules = []
        for _ in range(rnd.randint(0, 3)):
            kind = rnd.choice(["set", "default", "drop", "rename"])
            a, b = rnd.sample(LABEL_NAMES, 2)
            rules.append({"set": "set %s v" % a, "default": "default %s d" % a, "drop": "drop %s" % a,
                          "rename": "rename %s %s" % (a, b)}[kind])
        spec = {"labels": labels, "relabel": rules}
        if rnd.random() < 0.3:
            spec["prefix"] = "p%d_" % t
        tenants["ten%d" % t] = spec
    recs = []
    for _ in range(rnd.randint(150, 300)):
        tid = rnd.choice(sorted(tenants))
        tags = ["%s:%s" % (n, rnd.choice(["1", "2", "3"])) for n in rnd.sample(LABEL_NAMES, rnd.choice([0, 0, 1, 1, 1, 2, 3]))]
        kind = rnd.choice(["c", "c", "g", "ms"])
        name = {"c": "events", "g": "level", "ms": "latency"}[kind] + rnd.choice(["", "_b"])
        if kind == "c":
            text = "%s:%d|c" % (name, rnd.randint(1, 9))
            if rnd.random() < 0.3:
                text += "|@" + rnd.choice(["0.5", "0.25", "0.1"])
        elif kind == "g":
            text = "%s:%s|g" % (name, rnd.choice(["1", "2.5", "7", "-3"]))
        else:
            text = "%s:%s|ms" % (name, rnd.choice(HIST_VALUES))
        if tags:
            text += "|#" + ",".join(tags)
        recs.append((tid, text))
    job = rnd.choice(["tally", "edge", ""])
    buckets = sorted(rnd.sample([0.0625, 0.1, 0.25, 0.5, 1, 2.5, 5], rnd.randint(1, 5)))
    return conf(tenants, job=job, buckets=buckets), recs


@pytest.mark.parametrize("seed", range(1, 9))
def test_random_interval(seed):
    check(*random_case(seed))
