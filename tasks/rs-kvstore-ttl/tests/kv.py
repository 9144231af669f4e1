"""The runner's side of rs-kvstore-ttl's probe (/nab/probes/kvprobe.rs).

The probe is a program built with the agent's crate as the sandbox user (the `user:
sandbox` step, /nab/probes/build.sh); the broker runs it, one probe per test. It drives
emberkv's API (`Engine::execute`, snapshots, the log, a `ManualClock`) as these objects ask
and answers with what it saw: each reply's text (`Reply`'s `Display`), whether it is an
error, snapshot text, log lines, load errors. Every assertion and expected value is here, in
the runner, as the verifier user; the probe holds none.
"""

import itertools

import nabverify as nv

PROBE = "/tmp/nab-probe"
# A whole second, so that `EXPIREAT` deadlines land on it.
T0 = 1_700_000_000_000


class Probe:
    """One probe process: clocks and engines by name."""

    def __init__(self):
        self.proc = nv.spawn([PROBE], cwd="/tmp", env={"RUST_BACKTRACE": "0"})
        self.ids = itertools.count(1)

    def name(self, kind):
        return "%s%d" % (kind, next(self.ids))

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

    def clock(self, start_ms):
        c = Clock(self, self.name("clock"))
        self.call("clock", c.name, start_ms)
        return c

    def engine(self, clock):
        e = Engine(self, self.name("engine"))
        self.call("new", e.name, clock.name)
        return e

    def _loaded(self, reply, what):
        if reply.get("ok") is True and "err" not in reply:
            return None
        err = reply.get("err")
        if not isinstance(err, str):
            raise AssertionError("the probe answered %r to %s" % (reply, what))
        return err

    def try_from_snapshot(self, text, clock):
        """(engine, None) when `Engine::from_snapshot` loads `text`, else (None, its error)."""
        e = Engine(self, self.name("engine"))
        err = self._loaded(self.call("from_snapshot", e.name, clock.name, text), "from_snapshot")
        return (None, err) if err is not None else (e, None)

    def from_snapshot(self, text, clock, what="the snapshot loads"):
        e, err = self.try_from_snapshot(text, clock)
        assert err is None, "%s: %s\n%s" % (what, err, text)
        return e

    def replay(self, source, clock, what="the log replays"):
        """`Engine::replay(source.aof(), clock)`, which must load."""
        e = Engine(self, self.name("engine"))
        err = self._loaded(self.call("replay", e.name, clock.name, source.name), "replay")
        assert err is None, "%s: %s" % (what, err)
        return e

    def replay_lines(self, lines, clock, what="the log replays"):
        e = Engine(self, self.name("engine"))
        err = self._loaded(self.call("replay_lines", e.name, clock.name, *lines), "replay")
        assert err is None, "%s: %s" % (what, err)
        return e


class Clock:
    def __init__(self, probe, name):
        self.probe = probe
        self.name = name

    def advance(self, ms):
        self.probe.call("advance", self.name, ms)


class Engine:
    def __init__(self, probe, name):
        self.probe = probe
        self.name = name

    def execute(self, line):
        """(the reply's text, whether it is an error)."""
        r = self.probe.call("exec", self.name, line)
        text, err = r.get("reply"), r.get("error")
        if not isinstance(text, str) or not isinstance(err, bool):
            raise AssertionError("the probe answered %r to %r" % (r, line))
        return text, err

    def run(self, line):
        return self.execute(line)[0]

    def script(self, lines):
        """Runs each line in turn; none may answer an error."""
        r = self.probe.call("script", self.name, *lines)
        replies = r.get("replies")
        if not isinstance(replies, list) or len(replies) != len(lines):
            raise AssertionError("the probe answered %r to a script of %d lines" % (r, len(lines)))
        for line, reply in zip(lines, replies):
            if (not isinstance(reply, list) or len(reply) != 2 or not isinstance(reply[0], str)
                    or not isinstance(reply[1], bool)):
                raise AssertionError("the probe answered %r to %r" % (reply, line))
            assert not reply[1], "%s: %s" % (line, reply[0])

    def enable_aof(self):
        self.probe.call("enable_aof", self.name)

    def aof(self):
        lines = self.probe.call("aof", self.name).get("lines")
        if not isinstance(lines, list) or not all(isinstance(l, str) for l in lines):
            raise AssertionError("the probe answered %r for the log" % (lines,))
        return lines

    def snapshot(self):
        text = self.probe.call("snapshot", self.name).get("text")
        if not isinstance(text, str):
            raise AssertionError("the probe answered %r for a snapshot" % (text,))
        return text


def integer(n):
    return "(integer) %d" % n


def is_error(reply):
    return reply.startswith("(error)")
