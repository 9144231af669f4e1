"""Runs every plugin of /workspace on the sample trips (trips.json) and prints one line per
plugin: its key, a tab, and its results as canonical JSON (or the error it raised). The
harness compares this output, on the host, with what the original plugins computed on the
v2 core (expected/plugin_results.txt, which never enters a container).

With --marked, every v3 function of the core is first replaced by one that adds to its true
result a small amount that depends on the arguments it is given (by parameter name, so on
their values, not their order): the results then equal what the v2 plugins computed on a v2
core marked the same way (expected/plugin_results_marked.txt) only if each plugin's results
come from the core's functions, called with the arguments its v2 code gave them. A plugin
that computes its results itself (a v2 core copied into it) and calls the core only for
show gives the unmarked numbers.

It runs the workspace's code, so it runs as the sandbox user (a `user: sandbox`
expect_stdout step, from /nab/probes): what it prints is an observation of that code, and
the comparison is made on the host. It holds no expected values.

Byte code: the workspace's modules are imported from their sources only, compiled in
memory: no byte code is read from the workspace (a planted `__pycache__`, or a stray .pyc,
cannot stand in for a plugin's source) and none is written. From the workspace's top folder only
the package fleet is imported (FleetOnly): a file left next to it never stands in for a module
of the interpreter's that something imports later. The interpreter's own modules
(the paths on sys.path before /workspace is added) keep their usual byte code."""
import copy
import datetime
import functools
import importlib
import inspect
import importlib.machinery as machinery
import json
import os
import sys
import zlib

WS = "/workspace"
HERE = os.path.dirname(os.path.abspath(__file__))


def canon(value):
    """Numbers as floats (the v2 results compared equal whether a plugin returned 50 or
    50.0), tuples as lists, keys sorted by json.dumps."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canon(v) for k, v in value.items()}
    return repr(value)


def line(key, results):
    return key + "\t" + json.dumps(canon(results), sort_keys=True)


class SourceOnly(machinery.SourceFileLoader):
    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)


class FleetOnly(machinery.FileFinder):
    """The workspace's top folder gives the package fleet and nothing else: a lazy import of
    another module (one of the interpreter's, by a plugin or by the interpreter itself) is
    never served by a file the agent left next to fleet/."""

    def find_spec(self, fullname, target=None):
        return super().find_spec(fullname, target) if fullname == "fleet" else None


def source_only_imports(ws):
    system = tuple(os.path.realpath(p) + os.sep for p in sys.path if p)
    top = os.path.realpath(ws)

    def hook(path):
        if (os.path.realpath(path) + os.sep).startswith(system):
            raise ImportError("an interpreter path: the usual finder takes it")
        kind = FleetOnly if os.path.realpath(path) == top else machinery.FileFinder
        return kind(path, (SourceOnly, machinery.SOURCE_SUFFIXES))

    sys.dont_write_bytecode = True
    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()


CORE = ("fleet.core", "fleet.core.geo", "fleet.core.mathx", "fleet.core.timeutil", "fleet.core.units")


def core_state():
    """What the core's modules hold: each module object and, for each of its names, the
    object, and for a function its code and defaults; data as a deep copy."""
    state = {}
    for name in CORE:
        mod = sys.modules.get(name)
        state[name] = ("module", mod)
        for attr, value in sorted(vars(mod).items() if mod is not None else []):
            if attr.startswith("__") and attr not in ("__dict__",):
                continue
            if callable(value):
                state[f"{name}.{attr}"] = ("object", value, getattr(value, "__code__", None),
                                           getattr(value, "__defaults__", None), getattr(value, "__kwdefaults__", None))
            else:
                try:
                    state[f"{name}.{attr}"] = ("data", value, copy.deepcopy(value))
                except Exception:  # noqa: BLE001 - a value that cannot be copied is compared by identity
                    state[f"{name}.{attr}"] = ("data", value, None)
    return state


def changed(before, after):
    out = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a is None or b is None or len(a) != len(b):
            out.append(key)
        elif a[0] == "data":
            if a[1] is not b[1] or (a[2] is not None and a[2] != b[2]):
                out.append(key)
        elif any(x is not y for x, y in zip(a[1:], b[1:])):
            out.append(key)
    return out


# The v3 functions the marked run replaces (the v2 core's other functions call these, so a v2
# core is marked by the same replacement).
MARKED = {"fleet.core.geo": ("haversine_km",), "fleet.core.units": ("convert",),
          "fleet.core.timeutil": ("parse_timestamp",), "fleet.core.mathx": ("clamp", "wrap", "lerp")}


def arg_key(value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return repr(round(float(value), 6))  # 12 and 12.0 alike, and a last-bit difference too
    if isinstance(value, (list, tuple)):
        return [arg_key(v) for v in value]
    return repr(value)


def marked(name, fn):
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        result = fn(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        key = json.dumps([name, {k: arg_key(v) for k, v in bound.arguments.items()}], sort_keys=True)
        k = zlib.crc32(key.encode("utf-8")) % 7 + 1
        if isinstance(result, datetime.datetime):
            return result + datetime.timedelta(minutes=7 * k)
        return result + {"haversine_km": 0.37, "convert": 13.0}.get(name, 0.125) * k
    return call


def mark_core():
    for modname, names in MARKED.items():
        mod = sys.modules[modname]
        for name in names:
            setattr(mod, name, marked(name, getattr(mod, name)))


def main(ws=WS, mark="--marked" in sys.argv[1:]):
    # The lines go to the original standard output, kept on a descriptor of its own; the
    # plugins' own prints (and anything else they write to fd 1) go to standard error.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    source_only_imports(ws)
    with open(os.path.join(HERE, "trips.json"), encoding="utf-8") as f:
        data = json.load(f)
    sys.path.append(ws)
    # The core as v3 ships it, before any plugin is imported (fleet/__init__.py and the core
    # are the shipped files: the static checks require it).
    try:
        for name in CORE:
            importlib.import_module(name)
        if mark:
            mark_core()
        before = core_state()
    except Exception as e:  # noqa: BLE001
        before = None
        core_error = type(e).__name__
    for key in data["plugins"]:
        try:
            mod = importlib.import_module("fleet.plugins." + key.replace("/", "."))
            if mod.__file__ != f"{ws}/fleet/plugins/{key}.py":
                raise ImportError(f"loaded from {mod.__file__}")
            got = [mod.run({k: (tuple(v) if isinstance(v, list) else v) for k, v in t.items()})
                   for t in data["trips"]]
            # The JSON round trip the v2 results went through.
            text = line(key, json.loads(json.dumps(got)))
        except Exception as e:  # noqa: BLE001 - any failure is this plugin's wrong result
            text = f"{key}\terror: {type(e).__name__}"
        out.write(text + "\n")
    # The registry (fleet/plugins/__init__.py, which the static checks keep as shipped): every
    # plugin, by its NAME.
    try:
        registry = importlib.import_module("fleet.plugins").all_plugins()
        out.write("registry\t" + (str(len(registry)) if type(registry) is dict else "not a dict") + "\n")
    except Exception as e:  # noqa: BLE001
        out.write(f"registry\terror: {type(e).__name__}\n")
    # Whether importing and running every plugin left the core as it was: a plugin that
    # patches the core (however it reaches it) is not calling the v3 API.
    if before is None:
        out.write(f"core\terror: {core_error}\n")
    else:
        diff = changed(before, core_state())
        out.write("core\t" + ("unchanged" if not diff else "changed: " + ", ".join(diff)) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
