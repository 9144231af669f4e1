"""The broker: the only way a test runner reaches the code under test.

nab starts it in the verifier container as the sandbox user (uid 1000), the user the
agent's code runs as, before each verify step that runs as the verifier user:

    python3 -I /nab/lib/broker.py --socket /nab/rpc/broker.sock

The runner (another uid, which no process of uid 1000 can signal, trace or write to) asks
it over that Unix socket, one JSON line per request and per answer, to run programs, to
start long-lived probes and exchange lines with them, and to read or write files. Every
answer is data: exit status, bytes, lines. Nothing the broker or the code under test says
is evaluated by the runner, so the broker needs no protection from the code it runs: it
may be killed or impersonated, and the worst that does is a wrong observation (a failed
test). nab kills every uid-1000 process when the step ends.

Requests (`{"op": ..., ...}`; optional fields in brackets):
    run    argv [stdin_b64] [cwd] [env] [timeout] [max_output] [merge_stderr]
           -> exit, signal, timed_out, stdout_b64, stderr_b64, stdout_cut, stderr_cut
    spawn  argv [cwd] [env]                       -> id
    call   id line [timeout] [max_line]           -> line | eof | timed_out (+ stderr tail)
    close  id                                     -> exit, signal, stderr_b64
    read   path [max] [follow]                    -> data_b64, size, cut
    write  path data_b64 [mode] [parents]         -> {}
    list   path                                   -> entries [[name, kind], ...]
"""

import argparse
import base64
import json
import os
import queue
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

MAX_REQUEST = 64 * 1024 * 1024
DEFAULT_OUTPUT = 8 * 1024 * 1024
DEFAULT_LINE = 32 * 1024 * 1024
STDERR_TAIL = 64 * 1024
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    # Python in the code under test never reads the workspace's byte code, nor writes any.
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONPYCACHEPREFIX": "/tmp/nab-pycache",
}


class RequestError(Exception):
    pass


def env_for(req):
    env = dict(BASE_ENV)
    extra = req.get("env") or {}
    if not isinstance(extra, dict):
        raise RequestError("env must be an object of strings")
    for k, v in extra.items():
        if v is None:
            env.pop(str(k), None)
        else:
            env[str(k)] = str(v)
    return env


def argv_of(req):
    argv = req.get("argv")
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        raise RequestError("argv must be a non-empty list of strings")
    return argv


def kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except OSError:
        pass


class Capped:
    """Reads a pipe to its end, keeping the first `cap` bytes and counting the rest."""

    def __init__(self, pipe, cap):
        self.data = bytearray()
        self.dropped = 0
        self.thread = threading.Thread(target=self._drain, args=(pipe, cap), daemon=True)
        self.thread.start()

    def _drain(self, pipe, cap):
        try:
            while True:
                chunk = pipe.read1(65536) if hasattr(pipe, "read1") else pipe.read(65536)
                if not chunk:
                    return
                room = cap - len(self.data)
                self.data += chunk[: max(room, 0)]
                self.dropped += max(len(chunk) - max(room, 0), 0)
        except (OSError, ValueError):
            return


class Tail:
    """Keeps the last `cap` bytes of a pipe."""

    def __init__(self, pipe, cap=STDERR_TAIL):
        self.data = bytearray()
        self.cap = cap
        self.lock = threading.Lock()
        threading.Thread(target=self._drain, args=(pipe,), daemon=True).start()

    def _drain(self, pipe):
        try:
            while True:
                chunk = pipe.read1(65536)
                if not chunk:
                    return
                with self.lock:
                    self.data += chunk
                    del self.data[: max(len(self.data) - self.cap, 0)]
        except (OSError, ValueError):
            return

    def bytes(self):
        with self.lock:
            return bytes(self.data)


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def exit_fields(code):
    if code is None:
        return {"exit": None, "signal": None}
    if code < 0:
        return {"exit": None, "signal": -code}
    return {"exit": code, "signal": None}


def op_run(req):
    argv = argv_of(req)
    timeout = float(req.get("timeout", 60))
    cap = int(req.get("max_output", DEFAULT_OUTPUT))
    stdin = base64.b64decode(req.get("stdin_b64") or "")
    merge = bool(req.get("merge_stderr"))
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=req.get("cwd") or "/workspace",
            env=env_for(req),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge else subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as e:
        return {"exit": None, "signal": None, "timed_out": False, "spawn_error": str(e),
                "stdout_b64": "", "stderr_b64": "", "stdout_cut": 0, "stderr_cut": 0, "seconds": 0.0}
    out = Capped(proc.stdout, cap)
    err = None if merge else Capped(proc.stderr, cap)

    def feed():
        try:
            proc.stdin.write(stdin)
        except OSError:
            pass
        try:
            proc.stdin.close()
        except OSError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    # The program is done (or out of time): whatever it left running in its group goes too,
    # so nothing holds the pipes open.
    kill_group(proc)
    proc.wait()
    out.thread.join(5)
    if err:
        err.thread.join(5)
    reply = exit_fields(None if timed_out else proc.returncode)
    reply.update({
        "timed_out": timed_out,
        "stdout_b64": b64(out.data),
        "stdout_cut": out.dropped,
        "stderr_b64": b64(err.data) if err else "",
        "stderr_cut": err.dropped if err else 0,
        "seconds": round(time.monotonic() - started, 3),
    })
    return reply


class Spawned:
    def __init__(self, proc, max_line):
        self.proc = proc
        self.lines = queue.Queue()
        self.stderr = Tail(proc.stderr)
        self.lock = threading.Lock()
        threading.Thread(target=self._read, args=(max_line,), daemon=True).start()

    def _read(self, max_line):
        pipe = self.proc.stdout
        try:
            while True:
                line = pipe.readline(max_line + 1)
                if not line:
                    break
                if len(line) > max_line or not line.endswith(b"\n"):
                    self.lines.put(("too_long", None) if len(line) > max_line else ("line", line))
                    if len(line) > max_line:
                        break
                    continue
                self.lines.put(("line", line))
        except (OSError, ValueError):
            pass
        self.lines.put(("eof", None))


class Broker:
    def __init__(self):
        self.spawned = {}
        self.next_id = 1
        self.lock = threading.Lock()

    def spawn(self, req):
        argv = argv_of(req)
        try:
            proc = subprocess.Popen(
                argv,
                cwd=req.get("cwd") or "/workspace",
                env=env_for(req),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as e:
            raise RequestError("cannot start %s: %s" % (argv[0], e))
        with self.lock:
            i = self.next_id
            self.next_id += 1
            self.spawned[i] = Spawned(proc, int(req.get("max_line", DEFAULT_LINE)))
        return {"id": i}

    def get(self, req):
        with self.lock:
            s = self.spawned.get(req.get("id"))
        if s is None:
            raise RequestError("no spawned process %r" % (req.get("id"),))
        return s

    def call(self, req):
        s = self.get(req)
        line = req.get("line")
        if not isinstance(line, str) or "\n" in line:
            raise RequestError("line must be a string without a newline")
        with s.lock:
            try:
                s.proc.stdin.write(line.encode() + b"\n")
                s.proc.stdin.flush()
            except OSError:
                pass
            try:
                kind, data = s.lines.get(timeout=float(req.get("timeout", 60)))
            except queue.Empty:
                kill_group(s.proc)
                return {"timed_out": True, "stderr_b64": b64(s.stderr.bytes())}
        if kind == "line":
            return {"line": data.decode("utf-8", "replace").rstrip("\n")}
        if kind == "too_long":
            kill_group(s.proc)
            return {"too_long": True, "stderr_b64": b64(s.stderr.bytes())}
        s.lines.put(("eof", None))
        s.proc.wait()
        reply = exit_fields(s.proc.returncode)
        reply.update({"eof": True, "stderr_b64": b64(s.stderr.bytes())})
        return reply

    def close(self, req):
        s = self.get(req)
        with self.lock:
            self.spawned.pop(req.get("id"), None)
        try:
            s.proc.stdin.close()
        except OSError:
            pass
        try:
            s.proc.wait(timeout=float(req.get("grace", 2)))
        except subprocess.TimeoutExpired:
            pass
        kill_group(s.proc)
        s.proc.wait()
        reply = exit_fields(s.proc.returncode)
        reply["stderr_b64"] = b64(s.stderr.bytes())
        return reply


def op_read(req):
    path = req.get("path")
    if not isinstance(path, str):
        raise RequestError("path must be a string")
    cap = int(req.get("max", DEFAULT_OUTPUT))
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if req.get("follow") else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        return {"missing": True, "why": e.strerror or str(e)}
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return {"missing": True, "why": "not a regular file"}
        chunks, left = [], cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    finally:
        os.close(fd)
    return {"data_b64": b64(data[:cap]), "size": st.st_size, "cut": len(data) > cap}


def op_write(req):
    path = req.get("path")
    if not isinstance(path, str):
        raise RequestError("path must be a string")
    if req.get("parents"):
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    data = base64.b64decode(req.get("data_b64") or "")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, int(req.get("mode", 0o644)))
    try:
        os.fchmod(fd, int(req.get("mode", 0o644)))
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    finally:
        os.close(fd)
    return {}


def op_list(req):
    path = req.get("path")
    if not isinstance(path, str):
        raise RequestError("path must be a string")
    entries = []
    try:
        with os.scandir(path) as it:
            for e in it:
                try:
                    mode = e.stat(follow_symlinks=False).st_mode
                except OSError:
                    continue
                kind = ("dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode)
                        else "link" if stat.S_ISLNK(mode) else "other")
                entries.append([e.name, kind])
                if len(entries) >= 100_000:
                    break
    except OSError as e:
        return {"missing": True, "why": e.strerror or str(e)}
    entries.sort()
    return {"entries": entries}


def serve(conn, broker):
    reader = conn.makefile("rb")
    writer = conn.makefile("wb")
    try:
        while True:
            line = reader.readline(MAX_REQUEST + 1)
            if not line or len(line) > MAX_REQUEST:
                return
            try:
                req = json.loads(line)
                if not isinstance(req, dict):
                    raise RequestError("a request is a JSON object")
                op = req.get("op")
                if op == "run":
                    reply = op_run(req)
                elif op == "spawn":
                    reply = broker.spawn(req)
                elif op == "call":
                    reply = broker.call(req)
                elif op == "close":
                    reply = broker.close(req)
                elif op == "read":
                    reply = op_read(req)
                elif op == "write":
                    reply = op_write(req)
                elif op == "list":
                    reply = op_list(req)
                elif op == "ping":
                    reply = {"uid": os.getuid()}
                else:
                    raise RequestError("unknown op %r" % (op,))
            except (RequestError, ValueError, TypeError, OSError) as e:
                reply = {"error": "%s: %s" % (type(e).__name__, e)}
            writer.write(json.dumps(reply).encode() + b"\n")
            writer.flush()
    except (OSError, ValueError):
        return
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    opts = parser.parse_args()
    # A process the broker starts must never hold the listening socket.
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        os.unlink(opts.socket)
    except FileNotFoundError:
        pass
    sock.bind(opts.socket + ".new")
    # The runner is another user: it needs write access to connect.
    os.chmod(opts.socket + ".new", 0o666)
    sock.listen(16)
    # Appears only once it accepts connections: a runner that sees the path can connect.
    os.rename(opts.socket + ".new", opts.socket)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    broker = Broker()
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=serve, args=(conn, broker), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
