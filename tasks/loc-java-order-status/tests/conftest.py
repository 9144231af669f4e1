"""The order code runs in a Java probe (/nab/probes/nabprobe/OrderProbe.java) that the
`user: sandbox` step compiled with the workspace into /tmp/nab-build/classes. The broker
starts it as the sandbox user; it plays the scenarios the tests send and reports what each
step returned or threw. Every assertion is made here."""
import itertools

import nabverify as nv
import pytest

PROBE_ARGV = ["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
              "-cp", "/tmp/nab-build/classes", "nabprobe.OrderProbe"]


class Probe:
    def __init__(self):
        self.proc = nv.spawn(PROBE_ARGV, cwd="/tmp")
        self.seq = itertools.count(1)

    def scenario(self, *steps):
        """One observation per step: {"value": ...} or {"error": {"class", "message"}}."""
        seq = next(self.seq)
        reply = self.proc.call_json({"seq": seq, "op": "scenario", "steps": [list(s) for s in steps]}, timeout=60)
        assert isinstance(reply, dict) and reply.get("seq") == seq, f"the probe's reply is out of step: {reply!r:.300}"
        assert "error" not in reply, f"the probe could not play the scenario: {reply['error']}"
        got = reply.get("value")
        assert isinstance(got, list) and len(got) == len(steps), f"not one observation per step: {got!r:.300}"
        return got

    def values(self, *steps):
        """What each step returned; a test failure when one threw."""
        got = self.scenario(*steps)
        for step, obs in zip(steps, got):
            assert "error" not in obs, f"{step} threw {obs['error']}"
        return [obs["value"] for obs in got]


@pytest.fixture(scope="session")
def probe():
    p = Probe()
    yield p
    p.proc.close()
