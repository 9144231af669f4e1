"""File operations for the hidden build tests, run as the sandbox user:

    python3 -I /nab/probes/calcfs.py

started by the runner through the broker (nabverify.spawn). It reads one request per line,
{"op": NAME, "args": [...]}, calls the function of that name below and answers
{"ok": value} or {"error": "..."} (JSON). It copies the workspace into scratch folders,
sets and reads mtimes, modes and contents, and reports them as plain values. It holds no
expectations: the runner decides what is right. Nothing here runs workspace code; `make`
and the built programs are run by the runner with nabverify.run, each in a process of its
own. It runs as a script with -I: its own code is never loaded from byte code (nor are the
standard library's from anywhere the sandbox user can write)."""

import hashlib
import json
import os
import shutil
import sys
import tempfile

WS = "/workspace"
IGNORE = shutil.ignore_patterns("build", ".git", "*.o", "*.a", "*.d")


def names():
    """The project's modules, programs, unit tests and public headers, from the workspace."""
    def stems(folder, keep):
        return sorted(f[:-2] for f in os.listdir(os.path.join(WS, folder)) if keep(f))
    return {
        "mods": stems("lib", lambda f: f.endswith(".c")),
        "progs": stems("src", lambda f: f.endswith(".c")),
        "tests": stems("tests", lambda f: f.startswith("t_") and f.endswith(".c")),
        "headers": sorted(os.listdir(os.path.join(WS, "include", "calc"))),
    }


def scratch():
    """A new empty folder of the sandbox user's."""
    return tempfile.mkdtemp(prefix="calc-", dir="/tmp")


def fresh(progs):
    """A copy of the workspace without build outputs (nor a generated header or programs
    left in the tree), in a new folder; its path."""
    d = os.path.join(scratch(), "calc")
    shutil.copytree(WS, d, symlinks=True, ignore=IGNORE)
    for rel in ["include/calc/ops.h"] + list(progs):
        p = os.path.join(d, rel)
        if os.path.lexists(p):
            os.unlink(p)
    return d


def snapshot(d):
    """{relative path: sha256 of the contents} for every file, {"dir/": ""} for every folder."""
    out = {}
    for root, dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            h = hashlib.sha256()
            if os.path.islink(p):
                h.update(b"link:" + os.readlink(p).encode())
            else:
                with open(p, "rb") as fh:
                    for chunk in iter(lambda: fh.read(1 << 20), b""):
                        h.update(chunk)
            out[os.path.relpath(p, d)] = h.hexdigest()
        for x in dirs:
            out[os.path.relpath(os.path.join(root, x), d) + "/"] = ""
    return out


def settle(d, t0, touched=()):
    """Sources at t0, every build product and folder under build/ at t0 + 100; then each
    (relative path, time) in `touched` at that time."""
    for root, dirs, files in os.walk(d):
        rel = os.path.relpath(root, d)
        t = t0 + 100 if rel == "build" or rel.startswith("build" + os.sep) else t0
        for f in files:
            os.utime(os.path.join(root, f), (t, t), follow_symlinks=False)
        os.utime(root, (t, t))
    for rel, t in touched:
        os.utime(os.path.join(d, rel), (t, t))


def mtimes(d, rels):
    """{relative path: mtime, or None when there is no such file}."""
    out = {}
    for rel in rels:
        try:
            out[rel] = os.stat(os.path.join(d, rel)).st_mtime
        except FileNotFoundError:
            out[rel] = None
    return out


def product_mtimes(d):
    """{relative path: mtime} of every file under build/."""
    out = {}
    for root, _, files in os.walk(os.path.join(d, "build")):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, d)] = os.stat(p).st_mtime
    return out


def kinds(d, rels):
    """{relative path: "file" | "dir" | "other" | None (absent)}, links followed."""
    out = {}
    for rel in rels:
        p = os.path.join(d, rel)
        out[rel] = ("file" if os.path.isfile(p) else "dir" if os.path.isdir(p)
                    else "other" if os.path.lexists(p) else None)
    return out


def modes(root):
    """{relative path: permission bits} of every file under root."""
    got = {}
    for r, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(r, f)
            got[os.path.relpath(p, root)] = os.stat(p).st_mode & 0o7777
    return got


def append(d, rel, text):
    with open(os.path.join(d, rel), "a") as f:
        f.write(text)


def replace(d, rel, old, new):
    """Replaces every `old` in a file by `new`; how many there were."""
    p = os.path.join(d, rel)
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace(old, new))
    return text.count(old)


def write(d, rel, text):
    with open(os.path.join(d, rel), "w") as f:
        f.write(text)


OPS = {f.__name__: f for f in (names, scratch, fresh, snapshot, settle, mtimes, product_mtimes, kinds,
                                modes, append, replace, write)}


def main():
    for line in sys.stdin:
        try:
            req = json.loads(line)
            reply = {"ok": OPS[req["op"]](*req.get("args", []))}
        except Exception as e:  # noqa: BLE001 - every failure is an answer the runner reports
            reply = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
