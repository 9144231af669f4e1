"""The Python probe: imports the code under test and answers questions about it.

It runs as the sandbox user (uid 1000), started through the broker, never by the test
runner itself: whatever the workspace's code does in here (patch the interpreter, exit,
start processes, write files) stays on this side of the boundary. What leaves is data: one
JSON line per answer (see nabverify/wire.py), which the runner decodes without evaluating.

    python3 -I /nab/lib/pyprobe.py [--path DIR]... [--cwd DIR]

Requests are JSON lines on standard input, `{"id": N, "op": ..., ...}`; each gets one line
on standard output, `{"id": N, "ok": value}`, `{"id": N, "exc": {...}}` (the code under
test raised) or `{"id": N, "error": "..."}` (the request itself was wrong). The workspace's
own prints go to standard error, never into the protocol.

Byte code: the workspace's modules are compiled from their sources on every import, so no
`__pycache__` of the workspace is ever read (nor written), and a `.pyc` without its source
is never imported (see `source_only_imports`).
"""

import argparse
import builtins
import contextlib
import importlib
import importlib.machinery as machinery
import io
import json
import operator
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nabverify import wire  # noqa: E402

MAX_LINE = 64 * 1024 * 1024
MAX_TEXT = 64 * 1024
OPERATORS = {
    name: getattr(operator, name)
    for name in (
        "eq ne lt le gt ge add sub mul truediv floordiv mod pow neg pos abs invert "
        "and_ or_ xor lshift rshift matmul contains not_ truth index"
    ).split()
}


class Objects:
    """The objects the runner holds references to, by number."""

    def __init__(self):
        self.by_id = {}
        self.next_id = 1

    def ref(self, obj):
        i = self.next_id
        self.next_id += 1
        self.by_id[i] = obj
        t = type(obj)
        if isinstance(obj, type):
            body = {"$class": i, "type": _qualified(obj)}
            if issubclass(obj, BaseException):
                body["exception"] = [[_module(c), _qualname(c)] for c in obj.__mro__]
            return body
        return {"$ref": i, "type": _qualified(t)}

    def get(self, data):
        if not isinstance(data, dict):
            raise ProtocolError("expected a reference, got %r" % (data,))
        i = data.get("$ref", data.get("$class"))
        if not isinstance(i, int) or i not in self.by_id:
            raise ProtocolError("no object with reference %r" % (i,))
        return self.by_id[i]

    def encode(self, value):
        return wire.encode(value, self.ref)

    def decode(self, data):
        return wire.decode(data, self.get)


class ProtocolError(Exception):
    pass


def _module(c):
    m = getattr(c, "__module__", None)
    return m if isinstance(m, str) else "?"


def _qualname(c):
    q = getattr(c, "__qualname__", None)
    return q if isinstance(q, str) else getattr(c, "__name__", "?")


def _qualified(c):
    try:
        return "%s.%s" % (_module(c), _qualname(c))
    except Exception:
        return "?"


def _text(fn):
    """fn() as bounded text; whatever it raises becomes a note instead."""
    try:
        s = fn()
        if not isinstance(s, str):
            s = "<not a string>"
    except BaseException as e:  # the code under test decides what str() does
        s = "<%s while converting to text>" % type(e).__name__
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + "...[cut]"


def _exception(objects, e):
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    try:
        args = objects.encode(tuple(e.args))
    except Exception:
        args = {"$tuple": []}
    return {
        "class": objects.ref(type(e)),
        "message": _text(lambda: str(e)),
        "args": args,
        "ref": objects.ref(e),
        "traceback": tb[-MAX_TEXT:],
    }


def _kwargs(objects, data):
    if data is None:
        return {}
    pairs = data.items() if isinstance(data, dict) else None
    if pairs is None:
        raise ProtocolError("kwargs must be an object")
    return {str(k): objects.decode(v) for k, v in pairs}


def handle(objects, req):
    op = req.get("op")
    o = lambda key="obj": objects.get(req.get(key))  # noqa: E731
    args = lambda: [objects.decode(a) for a in req.get("args", [])]  # noqa: E731
    if op == "import":
        name = req.get("module")
        if not isinstance(name, str):
            raise ProtocolError("import needs a module name")
        return importlib.import_module(name)
    if op == "getattr":
        return getattr(o(), str(req.get("name")))
    if op == "setattr":
        setattr(o(), str(req.get("name")), objects.decode(req.get("value")))
        return None
    if op == "delattr":
        delattr(o(), str(req.get("name")))
        return None
    if op == "call":
        return o()(*args(), **_kwargs(objects, req.get("kwargs")))
    if op == "callmethod":
        return getattr(o(), str(req.get("name")))(*args(), **_kwargs(objects, req.get("kwargs")))
    if op == "getitem":
        return o()[objects.decode(req.get("key"))]
    if op == "setitem":
        o()[objects.decode(req.get("key"))] = objects.decode(req.get("value"))
        return None
    if op == "delitem":
        del o()[objects.decode(req.get("key"))]
        return None
    if op == "len":
        return len(o())
    if op == "bool":
        return bool(o())
    if op == "str":
        return str(o())
    if op == "repr":
        return repr(o())
    if op == "hash":
        return hash(o())
    if op == "int":
        return int(o())
    if op == "float":
        return float(o())
    if op == "iter":
        return iter(o())
    if op == "next":
        it, items, limit = o(), [], int(req.get("max", 256))
        for _ in range(max(1, min(limit, 4096))):
            try:
                items.append(next(it))
            except StopIteration:
                return {"done": True, "items": items}
        return {"done": False, "items": items}
    if op == "operator":
        fn = OPERATORS.get(req.get("name"))
        if fn is None:
            raise ProtocolError("unknown operator %r" % (req.get("name"),))
        return fn(*args())
    if op == "isinstance":
        return isinstance(o(), o("cls"))
    if op == "issubclass":
        return issubclass(o(), o("cls"))
    if op == "builtin":
        # A builtin applied to values of the probe (sorted, list, dict, type...).
        name = req.get("name")
        if name not in ("list", "tuple", "dict", "set", "sorted", "type", "vars", "dir", "callable"):
            raise ProtocolError("unknown builtin %r" % (name,))
        return getattr(builtins, name)(*args())
    if op == "release":
        for r in req.get("refs", []):
            objects.by_id.pop(r, None)
        return None
    raise ProtocolError("unknown op %r" % (op,))


def answer(objects, req):
    """One request's reply, as a JSON-ready dict."""
    rid = req.get("id") if isinstance(req, dict) else None
    if not isinstance(req, dict):
        return {"id": rid, "error": "a request is a JSON object"}
    out, err = io.StringIO(), io.StringIO()
    capture = bool(req.get("capture"))
    try:
        if capture:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                value = handle(objects, req)
        else:
            value = handle(objects, req)
        if req.get("op") == "next":
            # (items, done): the items as a list, whatever their types.
            value = (list(value["items"]), value["done"])
        reply = {"id": rid, "ok": objects.encode(value)}
    except ProtocolError as e:
        return {"id": rid, "error": str(e)}
    except wire.WireError as e:
        return {"id": rid, "error": "cannot encode the answer: %s" % e}
    except BaseException as e:  # noqa: B036 - the code under test may raise anything
        reply = {"id": rid, "exc": _exception(objects, e)}
    if capture:
        reply["stdout"] = out.getvalue()[-MAX_TEXT * 16:]
        reply["stderr"] = err.getvalue()[-MAX_TEXT * 16:]
    return reply


class SourceOnly(machinery.SourceFileLoader):
    """Compiles the source every time: never reads byte code, never writes any."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


def source_only_imports():
    """Modules outside the interpreter's own folders (the workspace's) are imported from
    their sources alone: no `__pycache__` of the workspace is read, and a `.pyc` without its
    source is never imported. The interpreter's own modules keep their byte code (on the
    read-only root file system), so starting a probe costs no recompiling."""
    system = tuple(os.path.realpath(p) + os.sep for p in sys.path if p)

    def hook(path):
        if (os.path.realpath(path) + os.sep).startswith(system):
            raise ImportError("an interpreter path: the usual finder takes it")
        return machinery.FileFinder(
            path,
            (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
            (SourceOnly, machinery.SOURCE_SUFFIXES),
        )

    sys.dont_write_bytecode = True
    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--path", action="append", default=[])
    parser.add_argument("--cwd", default="/workspace")
    opts = parser.parse_args()
    # The protocol keeps the original standard input and output; the code under test gets
    # /dev/null and standard error.
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    source_only_imports()
    sys.path[:0] = opts.path
    os.chdir(opts.cwd)
    objects = Objects()
    while True:
        line = proto_in.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            return
        try:
            req = json.loads(line)
        except ValueError as e:
            reply = {"id": None, "error": "not JSON: %s" % e}
        else:
            reply = answer(objects, req)
        try:
            data = json.dumps(reply, allow_nan=False).encode()
        except (ValueError, TypeError) as e:
            data = json.dumps({"id": reply.get("id"), "error": "cannot encode the answer: %s" % e}).encode()
        proto_out.write(data + b"\n")
        proto_out.flush()


if __name__ == "__main__":
    main()
