"""File operations for the hidden tests of tinyfmt's build, run as the sandbox user:

    python3 -I /nab/probes/pkgfs.py

started by the runner through the broker (nabverify.spawn). It reads one request per line,
{"op": NAME, "args": [...]}, calls the function of that name below and answers
{"ok": value} or {"error": "..."} (JSON). It copies the package into scratch folders, adds
inputs the runner gives it, installs the published files into a consumer folder and reports
file hashes as plain values. It holds no expectations and runs no workspace code: the build
and the consumers are run by the runner with nabverify.run, each in a process of its own."""

import hashlib
import json
import os
import shutil
import sys
import tempfile

WS = "/workspace"
IGNORE = shutil.ignore_patterns("dist", "node_modules", ".git")
STALE = {
    "dist/esm/legacy.js": "export const legacy = true;\n",
    "dist/cjs/legacy.js": "'use strict';\nexports.legacy = true;\n",
    "dist/esm/old/helpers.js": "export const old = true;\n",
}


def scratch(prefix="tf-"):
    return tempfile.mkdtemp(prefix=prefix, dir="/tmp")


def fresh(name="tinyfmt", version=None, add=None, stale=False):
    """A copy of the package without dist/ or node_modules/, in a new folder named `name`;
    `version` replaces package.json's version, `add` ({relative path: text}) adds files,
    `stale` leaves files of an earlier build in dist/. Returns its path."""
    d = os.path.join(scratch(), name)
    shutil.copytree(WS, d, symlinks=True, ignore=IGNORE)
    if version is not None:
        p = os.path.join(d, "package.json")
        with open(p) as f:
            pkg = json.load(f)
        pkg["version"] = version
        with open(p, "w") as f:
            json.dump(pkg, f, indent=2)
            f.write("\n")
    files = dict(add or {})
    if stale:
        files.update(STALE)
    for rel, text in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    return d


def tree(d, sub=""):
    """{path relative to d: sha256, or "link:<target>"} of every file (and link) under
    d/sub; None if d/sub is not a folder."""
    top = os.path.join(d, sub) if sub else d
    if not os.path.isdir(top):
        return None
    out = {}
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files) + [x for x in dirs if os.path.islink(os.path.join(root, x))]:
            p = os.path.join(root, name)
            rel = os.path.relpath(p, d)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            else:
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


def outside_dist(d):
    """tree(d) without anything under dist/."""
    return {k: v for k, v in tree(d).items() if not k.startswith("dist/") and k != "dist"}


def consumer(d):
    """A new project whose node_modules/tinyfmt holds what the package publishes (package.json,
    README.md and dist/, links followed), with the consumer probes at its root. Its path."""
    c = scratch("consumer-")
    pkg = os.path.join(c, "node_modules", "tinyfmt")
    os.makedirs(pkg)
    for rel in ("package.json", "README.md"):
        if os.path.exists(os.path.join(d, rel)):
            shutil.copy(os.path.join(d, rel), os.path.join(pkg, rel))
    if os.path.isdir(os.path.join(d, "dist")):
        shutil.copytree(os.path.join(d, "dist"), os.path.join(pkg, "dist"), symlinks=False)
    for probe in ("consume.mjs", "consume.cjs"):
        shutil.copy(os.path.join("/nab/probes", probe), os.path.join(c, probe))
    with open(os.path.join(c, "package.json"), "w") as f:
        f.write('{"name": "consumer", "private": true}\n')
    return c


def main():
    ops = {f.__name__: f for f in (fresh, tree, outside_dist, consumer)}
    for line in sys.stdin:
        try:
            req = json.loads(line)
            reply = {"ok": ops[req["op"]](*req.get("args", []))}
        except Exception as e:  # reported to the runner, which fails the test
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
