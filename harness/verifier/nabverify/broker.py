"""The runner's side of the broker (see /nab/lib/broker.py): run the code under test as the
sandbox user, and read what it left, without ever running it in this process.

Everything that comes back is an observation of the code under test. Assert on it here,
with expected values that never leave this process.
"""

import base64
import json
import os
import socket
import time

SOCKET = os.environ.get("NAB_BROKER", "/nab/rpc/broker.sock")
CONNECT_WITHIN = 20.0
MAX_REPLY = 256 * 1024 * 1024


class BrokerError(AssertionError):
    """The broker did not answer, or refused a request. A failure of the test (the code under
    test may have killed or replaced the broker), never a pass."""


class Result:
    """What a program run as the sandbox user did."""

    def __init__(self, argv, reply):
        self.argv = list(argv)
        self.exit = reply.get("exit")
        self.signal = reply.get("signal")
        self.timed_out = bool(reply.get("timed_out"))
        self.spawn_error = reply.get("spawn_error")
        self.stdout_bytes = base64.b64decode(reply.get("stdout_b64") or "")
        self.stderr_bytes = base64.b64decode(reply.get("stderr_b64") or "")
        self.stdout_cut = int(reply.get("stdout_cut") or 0)
        self.stderr_cut = int(reply.get("stderr_cut") or 0)
        self.seconds = float(reply.get("seconds") or 0.0)

    @property
    def stdout(self):
        return self.stdout_bytes.decode("utf-8", "replace")

    @property
    def stderr(self):
        return self.stderr_bytes.decode("utf-8", "replace")

    @property
    def ok(self):
        return self.exit == 0 and not self.timed_out

    def describe(self):
        how = ("timed out" if self.timed_out else "could not start: %s" % self.spawn_error if self.spawn_error
               else "killed by signal %s" % self.signal if self.signal else "exit %s" % self.exit)
        tail = self.stderr[-2000:] or self.stdout[-2000:]
        return "%s: %s\n%s" % (" ".join(self.argv), how, tail)

    def check(self):
        """Self, if the program exited 0 in time; otherwise an AssertionError that says why."""
        if not self.ok:
            raise AssertionError(self.describe())
        return self


class Broker:
    """One connection to the broker. Requests are answered in order."""

    def __init__(self, path=SOCKET, connect_within=CONNECT_WITHIN):
        deadline = time.monotonic() + connect_within
        last = None
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                break
            except OSError as e:
                s.close()
                last = e
                if time.monotonic() > deadline:
                    raise BrokerError("cannot reach the broker at %s: %s" % (path, last)) from None
                time.sleep(0.05)
        self.sock = s
        self.reader = s.makefile("rb")

    def request(self, req, timeout):
        try:
            self.sock.settimeout(timeout + 10.0)
            self.sock.sendall(json.dumps(req).encode() + b"\n")
            line = self.reader.readline(MAX_REPLY + 1)
        except OSError as e:
            raise BrokerError("the broker connection failed: %s" % e) from None
        if not line:
            raise BrokerError("the broker closed the connection (op %s)" % req.get("op"))
        if len(line) > MAX_REPLY:
            raise BrokerError("the broker's answer is longer than %d bytes" % MAX_REPLY)
        try:
            reply = json.loads(line)
        except ValueError:
            raise BrokerError("the broker's answer is not JSON") from None
        if not isinstance(reply, dict):
            raise BrokerError("the broker's answer is not an object")
        if "error" in reply:
            raise BrokerError("the broker refused %s: %s" % (req.get("op"), reply["error"]))
        return reply

    def run(self, argv, stdin=b"", cwd="/workspace", env=None, timeout=60.0, max_output=8 << 20,
            merge_stderr=False):
        """Runs argv as the sandbox user and returns a Result (whatever its exit status)."""
        if isinstance(stdin, str):
            stdin = stdin.encode()
        req = {
            "op": "run",
            "argv": [str(a) for a in argv],
            "stdin_b64": base64.b64encode(stdin).decode("ascii"),
            "cwd": cwd,
            "env": env or {},
            "timeout": float(timeout),
            "max_output": int(max_output),
            "merge_stderr": bool(merge_stderr),
        }
        return Result(argv, self.request(req, float(timeout)))

    def read(self, path, max_bytes=8 << 20, follow=False):
        """The bytes of a regular file as the sandbox user sees it, or None (missing, not a
        regular file, or a symlink unless `follow`)."""
        reply = self.request({"op": "read", "path": path, "max": int(max_bytes), "follow": bool(follow)}, 30.0)
        if reply.get("missing"):
            return None
        if reply.get("cut"):
            raise AssertionError("%s is larger than %d bytes" % (path, max_bytes))
        return base64.b64decode(reply.get("data_b64") or "")

    def read_text(self, path, max_bytes=8 << 20, follow=False):
        data = self.read(path, max_bytes, follow)
        return None if data is None else data.decode("utf-8", "replace")

    def write(self, path, data, mode=0o644, parents=True):
        """Writes a file as the sandbox user (an input for the code under test)."""
        if isinstance(data, str):
            data = data.encode()
        self.request({"op": "write", "path": path, "data_b64": base64.b64encode(data).decode("ascii"),
                      "mode": int(mode), "parents": bool(parents)}, 30.0)

    def listdir(self, path):
        """[(name, kind)] of a folder, kind one of dir, file, link, other; None if absent."""
        reply = self.request({"op": "list", "path": path}, 30.0)
        if reply.get("missing"):
            return None
        return [tuple(e) for e in reply.get("entries", [])]

    def spawn(self, argv, cwd="/workspace", env=None, max_line=32 << 20):
        """Starts a long-lived program (a probe) as the sandbox user; see Process."""
        reply = self.request({"op": "spawn", "argv": [str(a) for a in argv], "cwd": cwd, "env": env or {},
                              "max_line": int(max_line)}, 30.0)
        return Process(self, reply["id"], argv)


class ProbeDied(AssertionError):
    """A probe ended, timed out or answered past its limit."""


class Process:
    """A probe the broker started: one line out, one line back."""

    def __init__(self, broker, pid, argv):
        self.broker = broker
        self.id = pid
        self.argv = list(argv)
        self.dead = None

    def call_line(self, line, timeout=60.0):
        if self.dead:
            raise ProbeDied(self.dead)
        reply = self.broker.request({"op": "call", "id": self.id, "line": line, "timeout": float(timeout)},
                                    float(timeout))
        if "line" in reply:
            return reply["line"]
        err = base64.b64decode(reply.get("stderr_b64") or "").decode("utf-8", "replace")[-4000:]
        if reply.get("timed_out"):
            self.dead = "the probe %s gave no answer within %.0f s\n%s" % (self.argv[0], timeout, err)
        elif reply.get("too_long"):
            self.dead = "the probe %s answered with a line over its limit\n%s" % (self.argv[0], err)
        else:
            self.dead = "the probe %s ended (exit %s, signal %s)\n%s" % (
                self.argv[0], reply.get("exit"), reply.get("signal"), err)
        raise ProbeDied(self.dead)

    def call_json(self, obj, timeout=60.0):
        line = self.call_line(json.dumps(obj), timeout)
        try:
            return json.loads(line)
        except ValueError:
            raise ProbeDied("the probe %s answered with a line that is not JSON: %.200s" % (self.argv[0], line))

    def close(self):
        if self.dead is None:
            self.dead = "closed"
        try:
            return self.broker.request({"op": "close", "id": self.id}, 10.0)
        except BrokerError:
            return {}


_default = None


def default():
    """The broker connection this runner shares between its tests."""
    global _default
    if _default is None:
        _default = Broker()
    return _default
