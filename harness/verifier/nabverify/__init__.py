"""The test runner's library in the verifier (on PYTHONPATH as /nab/lib).

The runner runs as the verifier user; the code under test runs only as the sandbox user,
started by the broker. This package is how a test reaches it:

    import nabverify as nv
    r = nv.run(["bash", "bin/report.sh", "logs"])      # a program, as the sandbox user
    assert r.ok and r.stdout == "..."
    data = nv.read("/workspace/out.csv")                 # a file it wrote (no symlinks)
    mod = nv.python().import_module("pkg.mod")           # Python, through a probe
    probe = nv.spawn(["/tmp/probe"])                     # any long-lived probe, line by line

Every answer is an observation; assertions and expected values stay in this process.
"""

from .broker import Broker, BrokerError, ProbeDied, Process, Result, default
from .pyremote import RemoteError, RemoteObject, Session, python


def run(argv, **kwargs):
    """Runs argv as the sandbox user (see Broker.run)."""
    return default().run(argv, **kwargs)


def read(path, max_bytes=8 << 20, follow=False):
    return default().read(path, max_bytes, follow)


def read_text(path, max_bytes=8 << 20, follow=False):
    return default().read_text(path, max_bytes, follow)


def write(path, data, mode=0o644, parents=True):
    return default().write(path, data, mode, parents)


def listdir(path):
    return default().listdir(path)


def spawn(argv, **kwargs):
    return default().spawn(argv, **kwargs)


__all__ = [
    "Broker", "BrokerError", "ProbeDied", "Process", "Result", "RemoteError", "RemoteObject",
    "Session", "listdir", "python", "read", "read_text", "run", "spawn", "write",
]
