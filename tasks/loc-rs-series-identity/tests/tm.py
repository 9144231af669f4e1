"""The runner's side of loc-rs-series-identity's probe (/nab/probes/tmprobe.rs).

The probe is a program built with the agent's crate as the sandbox user (the `user:
sandbox` step, /nab/probes/build.sh); the broker runs it, one probe per test. It calls
tidemark's API as these objects ask and answers with what came back (series counts and
keys, samples, roll-up rows, stats, fingerprints, errors). Every assertion and expected
value is here, in the runner, as the verifier user; the probe holds none.
"""

import itertools

import nabverify as nv

PROBE = "/tmp/nab-probe"


class Probe:
    def __init__(self):
        self.proc = nv.spawn([PROBE], cwd="/tmp", env={"RUST_BACKTRACE": "0"})
        self.ids = itertools.count(1)

    def call(self, *args, timeout=30.0):
        req = [str(a) for a in args]
        reply = self.proc.call_json(req, timeout=timeout)
        what = " ".join(req)[:300]
        if not isinstance(reply, dict):
            raise AssertionError("the probe answered %r to %s" % (reply, what))
        if "panic" in reply:
            raise AssertionError("the code under test panicked on %s: %s" % (what, reply["panic"]))
        if "probe_error" in reply:
            raise AssertionError("the probe refused %s: %s" % (what, reply["probe_error"]))
        return reply

    def close(self):
        self.proc.close()

    def db(self, shards, chunk=120):
        d = Db(self, "db%d" % next(self.ids))
        self.call("new", d.name, shards, chunk)
        return d

    def fingerprint(self, pairs):
        r = self.call("fingerprint", *flat(pairs))
        return int(r["fp"])


def flat(pairs):
    out = []
    for k, v in pairs:
        out += [k, v]
    return out


class Db:
    def __init__(self, probe, name):
        self.probe = probe
        self.name = name

    def append(self, metric, pairs, ts, value):
        """None when the sample was taken, else (error text, whether it is OutOfOrder)."""
        r = self.probe.call("append", self.name, metric, ts, repr(float(value)), *flat(pairs))
        if r.get("ok") is True:
            return None
        if not isinstance(r.get("err"), str):
            raise AssertionError("the probe answered %r to append" % (r,))
        return (r["err"], r.get("out_of_order") is True)

    def ingest(self, text):
        r = self.probe.call("ingest", self.name, text)
        assert "err" not in r, "ingest_text refused the text: %s" % r["err"]
        return r

    def count(self):
        return int(self.probe.call("count", self.name)["count"])

    def series(self):
        return [(k, int(n)) for k, n in self.probe.call("series", self.name)["series"]]

    def select(self, selector, start=-(2 ** 62), end=2 ** 62):
        r = self.probe.call("select", self.name, selector, start, end)
        return [(k, [(int(t), float(v)) for t, v in samples]) for k, samples in r["series"]]

    def rollup(self, selector, agg, across, by, step, start, end):
        r = self.probe.call("rollup", self.name, selector, agg, across, ",".join(by), step, start, end)
        return [(int(s), g, float(v), int(n)) for s, g, v, n in r["rows"]]

    def stats(self):
        return self.probe.call("stats", self.name)

    def export(self):
        return self.probe.call("export", self.name)["text"]


def key(metric, pairs):
    """The series a sample belongs to, by README.md: the name and the labels that have a
    value, in any order."""
    return (metric, frozenset((k, v) for k, v in pairs if v != ""))


def display(metric, pairs):
    """How `SeriesKey` prints: the labels that have a value, by name, values escaped."""
    items = sorted((k, v) for k, v in pairs if v != "")
    esc = lambda v: v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return metric + "{" + ",".join('%s="%s"' % (k, esc(v)) for k, v in items) + "}"
