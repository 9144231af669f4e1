"""The interval library runs in a Java probe (/nab/probes/nabprobe/IntervalProbe.java) that
the `user: sandbox` step compiled with the workspace into /tmp/nab-build/classes. The broker
starts it as the sandbox user; it reports what the library returned or threw, and every
assertion is made here."""
import itertools

import nabverify as nv
import pytest

PROBE_ARGV = ["java", "-Xss4m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
              "-cp", "/tmp/nab-build/classes", "nabprobe.IntervalProbe"]


class Probe:
    def __init__(self):
        self.proc = nv.spawn(PROBE_ARGV, cwd="/tmp")
        self.seq = itertools.count(1)

    def ask(self, op, **fields):
        """The probe's reply to one request: {"value": ...} or {"error": {...}}."""
        seq = next(self.seq)
        reply = self.proc.call_json({"seq": seq, "op": op, **fields}, timeout=60)
        assert isinstance(reply, dict) and reply.get("seq") == seq, f"the probe's reply is out of step: {reply!r:.300}"
        assert ("value" in reply) != ("error" in reply), f"a reply has a value or an error: {reply!r:.300}"
        return reply

    def __call__(self, op, **fields):
        """What the library returned; a test failure when it threw."""
        reply = self.ask(op, **fields)
        assert "error" not in reply, f"{op} {fields!r:.200} threw {reply['error']}"
        return reply["value"]


@pytest.fixture(scope="session")
def probe():
    p = Probe()
    yield p
    p.proc.close()
