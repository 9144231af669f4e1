"""Runs every plugin of /workspace on the sample trips (trips.json) and prints one line per
plugin: its key, a tab, and its results as canonical JSON (or the error it raised). The
harness compares this output, on the host, with what the original plugins computed on the
v2 core (expected/plugin_results.txt, which never enters a container)."""
import importlib
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


def main():
    with open(os.path.join(HERE, "trips.json"), encoding="utf-8") as f:
        data = json.load(f)
    sys.path.insert(0, WS)
    for key in data["plugins"]:
        try:
            mod = importlib.import_module("fleet.plugins." + key.replace("/", "."))
            if mod.__file__ != f"{WS}/fleet/plugins/{key}.py":
                raise ImportError(f"loaded from {mod.__file__}")
            got = [mod.run({k: (tuple(v) if isinstance(v, list) else v) for k, v in t.items()})
                   for t in data["trips"]]
            # The JSON round trip the v2 results went through.
            out = line(key, json.loads(json.dumps(got)))
        except Exception as e:  # noqa: BLE001 - any failure is this plugin's wrong result
            out = f"{key}\terror: {type(e).__name__}"
        sys.stdout.write(out + "\n")


if __name__ == "__main__":
    main()
