"""Runs every plugin of /workspace on the sample trips (trips.json) and prints one line per
plugin: its key, a tab, and its results as canonical JSON (or the error it raised). The
harness compares this output, on the host, with what the original plugins computed on the
v2 core (expected/plugin_results.txt, which never enters a container).

It runs the workspace's code, so it runs as the sandbox user (a `user: sandbox`
expect_stdout step, from /nab/probes): what it prints is an observation of that code, and
the comparison is made on the host. It holds no expected values.

Byte code: the workspace's modules are imported from their sources only, compiled in
memory: no byte code is read from the workspace (a planted `__pycache__`, or a stray .pyc,
cannot stand in for a plugin's source) and none is written. The interpreter's own modules
(the paths on sys.path before /workspace is added) keep their usual byte code."""
import copy
import importlib
import importlib.machinery as machinery
import json
import os
import sys

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


def source_only_imports():
    system = tuple(os.path.realpath(p) + os.sep for p in sys.path if p)

    def hook(path):
        if (os.path.realpath(path) + os.sep).startswith(system):
            raise ImportError("an interpreter path: the usual finder takes it")
        return machinery.FileFinder(path, (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
                                    (SourceOnly, machinery.SOURCE_SUFFIXES))

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


def main():
    # The lines go to the original standard output, kept on a descriptor of its own; the
    # plugins' own prints (and anything else they write to fd 1) go to standard error.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    source_only_imports()
    with open(os.path.join(HERE, "trips.json"), encoding="utf-8") as f:
        data = json.load(f)
    sys.path.insert(0, WS)
    # The core as v3 ships it, before any plugin is imported (fleet/__init__.py and the core
    # are the shipped files: the static checks require it).
    try:
        for name in CORE:
            importlib.import_module(name)
        before = core_state()
    except Exception as e:  # noqa: BLE001
        before = None
        core_error = type(e).__name__
    for key in data["plugins"]:
        try:
            mod = importlib.import_module("fleet.plugins." + key.replace("/", "."))
            if mod.__file__ != f"{WS}/fleet/plugins/{key}.py":
                raise ImportError(f"loaded from {mod.__file__}")
            got = [mod.run({k: (tuple(v) if isinstance(v, list) else v) for k, v in t.items()})
                   for t in data["trips"]]
            # The JSON round trip the v2 results went through.
            text = line(key, json.loads(json.dumps(got)))
        except Exception as e:  # noqa: BLE001 - any failure is this plugin's wrong result
            text = f"{key}\terror: {type(e).__name__}"
        out.write(text + "\n")
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
