"""The runner's side of the probe (/nab/probes/tallyprobe/), built with the agent's module
as the sandbox user by /nab/probes/build.sh. A test's configuration and capture are
written through the broker into the sandbox user's /tmp; the broker runs the probe on
them with a clean environment and these functions read only what it answers."""

import itertools
import json

import nabverify as nv

PROBE = "/tmp/nab-go/probe"
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
_DIRS = itertools.count(1)


def run(config, records):
    """The export the probe made of config (a dict) and records [(tenant, line)]."""
    d = "/tmp/nab-inputs/%d" % next(_DIRS)
    nv.write(d + "/tally.json", json.dumps(config, indent=1))
    nv.write(d + "/capture.txt", "# a capture of the hidden tests\n" + "".join("%s %s\n" % r for r in records))
    r = nv.run([PROBE, d + "/tally.json", d + "/capture.txt"], env=ENV, cwd="/tmp", timeout=30)
    assert not r.timed_out, "the probe did not answer within 30 s"
    assert r.exit == 0, "the probe ended with exit %s: %s" % (r.exit, r.stderr[-3000:])
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, "the probe answered %r" % r.stdout[:500]
    ans = json.loads(lines[0])
    assert isinstance(ans, dict), "the probe answered %r" % (ans,)
    if "panic" in ans:
        raise AssertionError("the code under test panicked: %s\n%s" % (ans["panic"], str(ans.get("stack"))[-3000:]))
    assert ans.get("error") is None, "tally refused the test's input: %s" % ans.get("error")
    assert isinstance(ans.get("export"), str), "the probe answered %r" % (ans,)
    return ans["export"]
