#!/usr/bin/env python3
"""Generates the fleet codebase (workspace/), the verifier's inputs (tests/probes/trips.json: the
sample trips and the plugin keys) and the expected outputs (expected/plugin_results.txt,
computed by running every plugin against the OLD core API, whose behaviour the migration
must preserve; it stays on the host). Deterministic: python3 generate.py"""
import importlib.util
import json
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WS = os.path.join(HERE, "workspace")
rng = random.Random(3000)
GROUPS = ["routing", "pricing", "safety", "reporting", "telemetry"]

NEW_CORE = {
    "__init__.py": '"""fleet core library (API v3). See MIGRATION.md."""\n',
    "geo.py": '''"""Great-circle geometry on (lat, lon) pairs in degrees."""
import math

EARTH_RADIUS_KM = 6371.0088


def haversine_km(a, b):
    """Great-circle distance between points a and b, in kilometres."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))
''',
    "units.py": '''"""Length units."""

METRES_PER = {"m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048}


def convert(value, from_unit, to_unit):
    """Converts a length between any two of: m, km, mi, ft."""
    try:
        return value * METRES_PER[from_unit] / METRES_PER[to_unit]
    except KeyError as e:
        raise ValueError(f"unknown length unit {e.args[0]!r}") from None
''',
    "mathx.py": '''"""Small numeric helpers."""


def clamp(lo, hi, value):
    """value limited to [lo, hi]. (v3: bounds first, so partial(clamp, 0, 1) reads well.)"""
    if lo > hi:
        raise ValueError(f"empty range [{lo}, {hi}]")
    return max(lo, min(hi, value))
''',
    "timeutil.py": '''"""Timestamps."""
from datetime import datetime, timezone


def parse_timestamp(text):
    """Parses an ISO-8601 timestamp; a trailing Z or no offset means UTC."""
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)
''',
}

OLD_CORE = dict(NEW_CORE)
OLD_CORE["geo.py"] += '\n\ndef distance(a, b):\n    return haversine_km(a, b)\n'
OLD_CORE["units.py"] += '\n\ndef to_meters(value, unit):\n    return convert(value, unit, "m")\n'
OLD_CORE["mathx.py"] = OLD_CORE["mathx.py"].replace("def clamp(lo, hi, value):", "def clamp(value, lo, hi):")
OLD_CORE["timeutil.py"] += '\n\ndef parse_iso(text):\n    return parse_timestamp(text)\n'


def imports(style, need):
    """Returns (import lines, names) for the old API in one of three styles."""
    lines, n = [], {}
    if style == "module":
        mods = sorted({m for m, _ in need.values()})
        lines.append(f"from fleet.core import {', '.join(mods)}")
        for key, (mod, fn) in need.items():
            n[key] = f"{mod}.{fn}"
    elif style == "names":
        by_mod = {}
        for key, (mod, fn) in need.items():
            by_mod.setdefault(mod, []).append(fn)
            n[key] = fn
        for mod in sorted(by_mod):
            lines.append(f"from fleet.core.{mod} import {', '.join(sorted(by_mod[mod]))}")
    else:  # aliases
        alias = {"geo": "g", "units": "u", "mathx": "mx", "timeutil": "tu"}
        for key, (mod, fn) in sorted(need.items()):
            if key in ("clamp", "parse"):
                line = f"import fleet.core.{mod} as {alias[mod]}"
                if line not in lines:
                    lines.append(line)
                n[key] = f"{alias[mod]}.{fn}"
            else:
                lines.append(f"from fleet.core.{mod} import {fn} as {fn}_fn")
                n[key] = f"{fn}_fn"
    return lines, n


API = {"dist": ("geo", "distance"), "tom": ("units", "to_meters"), "clamp": ("mathx", "clamp"), "parse": ("timeutil", "parse_iso")}


def body(kind, n, k1, k2):
    if kind == "score":
        return f'''    d_km = {n["dist"]}(trip["start"], trip["end"])
    score = {n["clamp"]}(d_km * {k1} + trip["bias"], {k2}, trip["cap"])
    return {{"score": round(score, 3)}}'''
    if kind == "length":
        return f'''    metres = {n["tom"]}(trip["raw_len"], trip["unit"])
    capped = {n["clamp"]}(metres / {k1 * 100}, 0, trip["cap"])
    return {{"metres": round(metres, 2), "capped": round(capped, 3)}}'''
    if kind == "time":
        return f'''    t = {n["parse"]}(trip["when"])
    lateness = {n["clamp"]}(t.hour - {k2}, 0, 12)
    return {{"hour": t.hour, "weekday": t.weekday(), "late": lateness}}'''
    if kind == "combo":
        return f'''    d_km = {n["dist"]}(trip["start"], trip["end"])
    metres = {n["tom"]}(trip["raw_len"], trip["unit"])
    level = {n["clamp"]}(int(d_km // {k1}), 1, 5)
    return {{"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}}'''
    if kind == "nested":
        return f'''    d_km = {n["dist"]}(trip["start"], trip["end"])
    t = {n["parse"]}(trip["when"])
    value = {n["clamp"]}(max(d_km, trip["bias"]) * ({k1} + t.minute / 60), min({k2}, 3), trip["cap"] + 1)
    return {{"value": round(value, 3)}}'''
    raise ValueError(kind)


NEEDS = {"score": ["dist", "clamp"], "length": ["tom", "clamp"], "time": ["parse", "clamp"],
         "combo": ["dist", "tom", "clamp"], "nested": ["dist", "parse", "clamp"]}


def plugin(i):
    group = GROUPS[i % len(GROUPS)]
    name = f"{group}_{i:03d}"
    local_clamp = i % 17 == 5
    kind = rng.choice(list(NEEDS))
    style = rng.choice(["module", "names", "aliases"])
    k1, k2 = rng.randint(2, 9), rng.randint(0, 4)
    need = {key: API[key] for key in NEEDS[kind] if not (local_clamp and key == "clamp")}
    lines, n = imports(style, need)
    if local_clamp:
        n["clamp"] = "clamp"
    src = [f'"""Plugin {name}: {kind} metric for a trip ({group})."""']
    src += lines + [""]
    if local_clamp:
        src += ["", "def clamp(value, lo, hi):",
                '    """Local helper (value first), kept from the v1 days: not the core one."""',
                "    return lo if value < lo else hi if value > hi else value", ""]
    src += ["", f'NAME = "{name}"', "", "", "def run(trip):",
            f'    """Computes the {kind} metric of one trip (see fleet.plugins.TRIP_FIELDS)."""',
            body(kind, n, k1, k2), ""]
    return group, name, "\n".join(src)


def write_tree(root, core):
    if os.path.exists(os.path.join(root, "fleet")):
        shutil.rmtree(os.path.join(root, "fleet"))
    os.makedirs(os.path.join(root, "fleet/core"))
    with open(os.path.join(root, "fleet/__init__.py"), "w") as f:
        f.write('"""fleet: trip analytics. Plugins in fleet.plugins compute one metric each."""\n')
    for fn, text in core.items():
        with open(os.path.join(root, "fleet/core", fn), "w") as f:
            f.write(text)
    with open(os.path.join(root, "fleet/plugins/__init__.py") if False else os.devnull, "w"):
        pass
    rng.seed(3000)
    plugins = [plugin(i) for i in range(200)]
    os.makedirs(os.path.join(root, "fleet/plugins"))
    with open(os.path.join(root, "fleet/plugins/__init__.py"), "w") as f:
        f.write('''"""Trip metric plugins: every module in a group package defines NAME and run(trip).

A trip is a dict with these fields (TRIP_FIELDS):
  start, end  (lat, lon) in degrees
  raw_len     odometer length, in `unit`
  unit        one of m, km, mi, ft
  when        ISO-8601 start time
  bias, cap   per-customer tuning numbers
"""
import importlib
import pkgutil

TRIP_FIELDS = ("start", "end", "raw_len", "unit", "when", "bias", "cap")
GROUPS = ("routing", "pricing", "safety", "reporting", "telemetry")


def all_plugins():
    """Imports every plugin module; returns {NAME: module}."""
    out = {}
    for group in GROUPS:
        pkg = importlib.import_module(f"{__name__}.{group}")
        for info in pkgutil.iter_modules(pkg.__path__):
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            out[mod.NAME] = mod
    return out
''')
    for g in GROUPS:
        os.makedirs(os.path.join(root, "fleet/plugins", g))
        with open(os.path.join(root, "fleet/plugins", g, "__init__.py"), "w") as f:
            f.write(f'"""{g} plugins."""\n')
    for group, name, text in plugins:
        with open(os.path.join(root, "fleet/plugins", group, name + ".py"), "w") as f:
            f.write(text)
    return plugins


TRIPS = [
    {"start": [52.52, 13.405], "end": [48.1351, 11.582], "raw_len": 362.5, "unit": "mi",
     "when": "2024-07-14T08:31:36Z", "bias": 2.5, "cap": 900},
    {"start": [53.5511, 9.9937], "end": [53.5621, 10.0011], "raw_len": 4200, "unit": "ft",
     "when": "2024-07-13T23:05:00+02:00", "bias": 0.0, "cap": 6},
    {"start": [40.7128, -74.006], "end": [34.0522, -118.2437], "raw_len": 4501.2, "unit": "km",
     "when": "2024-12-31T17:59:59", "bias": 10.0, "cap": 50},
]

if __name__ == "__main__":
    plugins = write_tree(WS, NEW_CORE)
    tmp = tempfile.mkdtemp()
    write_tree(tmp, OLD_CORE)
    sys.path.insert(0, tmp)
    expected = {}
    for group, name, _ in plugins:
        spec = importlib.util.spec_from_file_location(f"fleet.plugins.{group}.{name}", os.path.join(tmp, "fleet/plugins", group, name + ".py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        expected[f"{group}/{name}"] = [mod.run(dict(t)) for t in TRIPS]
    shutil.rmtree(tmp)
    # The same JSON round trip and canonical lines the verifier's run_plugins.py (tests/probes/) prints.
    expected = json.loads(json.dumps(expected))
    sys.path.insert(0, os.path.join(HERE, "tests", "probes"))
    import run_plugins
    keys = sorted(expected)
    with open(os.path.join(HERE, "tests/probes/trips.json"), "w") as f:
        json.dump({"plugins": keys, "trips": TRIPS}, f, indent=0, sort_keys=True)
        f.write("\n")
    os.makedirs(os.path.join(HERE, "expected"), exist_ok=True)
    with open(os.path.join(HERE, "expected/plugin_results.txt"), "w") as f:
        for k in keys:
            f.write(run_plugins.line(k, expected[k]) + "\n")
    # What each plugin's migrated source must call (the v3 names of the core functions
    # its v2 source called) and whether it keeps a local clamp helper: the hidden static
    # check (tests/test_api_static.py) parses every migrated plugin against this.
    v3 = {"dist": "haversine_km", "tom": "convert", "clamp": "clamp", "parse": "parse_timestamp"}
    api = {}
    for group, name, text in plugins:
        kind = text.split(": ", 1)[1].split(" ", 1)[0]
        local = "\ndef clamp(" in text
        api[f"{group}/{name}"] = {
            "calls": sorted(v3[k] for k in NEEDS[kind] if not (local and k == "clamp")),
            "local_clamp": local,
        }
    with open(os.path.join(HERE, "tests/plugin_api.json"), "w") as f:
        json.dump(api, f, indent=0, sort_keys=True)
        f.write("\n")
    kinds = {}
    for _, _, text in plugins:
        k = text.split(": ", 1)[1].split(" ", 1)[0]
        kinds[k] = kinds.get(k, 0) + 1
    print(len(plugins), "plugins;", kinds, "; local clamp:", sum("def clamp" in t for _, _, t in plugins))
