#!/usr/bin/env python3
"""Generates the fleet codebase (workspace/), the oracle's migrated plugins (solution/migrated/),
the verifier's inputs (tests/probes/trips.json: the sample trips and the plugin keys;
tests/plugin_api.json: what each migrated plugin must call) and the expected outputs
(expected/plugin_results.txt, computed by running every plugin against the OLD core API,
whose behaviour the migration must preserve; it stays on the host).
Deterministic: python3 generate.py

Besides the named renames, some v2 plugins reach the core without its name: an import under
another name, the plugins' own `fleet/plugins/toolkit.py` (which re-exports core functions
under short names), a `functools.partial` with the bounds pre-filled, a dict of callables, a
tuple of arguments passed with `*`, bounds passed with `**`; and `mathx.wrap` changes its
argument order in v3 although MIGRATION.md names only its behaviour (the rule for functions
that bring a value into a range), while `mathx.lerp` (range first already) does not."""
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WS = os.path.join(HERE, "workspace")
MIGRATED = os.path.join(HERE, "solution", "migrated")
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


def wrap(lo, hi, value):
    """value folded into [lo, hi) by whole periods of hi - lo: an angle into [0, 360), an hour
    into [0, 24)."""
    if lo >= hi:
        raise ValueError(f"empty range [{lo}, {hi})")
    return lo + (value - lo) % (hi - lo)


def lerp(lo, hi, t):
    """The number a fraction t of the way from lo to hi (t outside [0, 1] extrapolates)."""
    return lo + (hi - lo) * t
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
OLD_CORE["mathx.py"] = (OLD_CORE["mathx.py"].replace("def clamp(lo, hi, value):", "def clamp(value, lo, hi):")
                        .replace("def wrap(lo, hi, value):", "def wrap(value, lo, hi):"))
OLD_CORE["timeutil.py"] += '\n\ndef parse_iso(text):\n    return parse_timestamp(text)\n'

# The plugins' own module (shipped with v2 and unchanged by the v3 upgrade): short names for
# the core functions the plugins use most. Importing it still works under v3.
TOOLKIT = '''"""Short forms of what the trip plugins use most from the core library, so that a plugin
needs one import line. Kept by the plugin owners."""
from fleet.core.geo import haversine_km as great_circle
from fleet.core.mathx import clamp as bounded
from fleet.core.mathx import lerp as blend
from fleet.core.mathx import wrap as cyclic
from fleet.core.units import convert as convert_length
'''
TOOLKIT_NAMES = {"clamp": "bounded", "wrap": "cyclic"}

# key -> (core module, v2 name, v3 name)
API = {"dist": ("geo", "distance", "haversine_km"), "tom": ("units", "to_meters", "convert"),
       "clamp": ("mathx", "clamp", "clamp"), "parse": ("timeutil", "parse_iso", "parse_timestamp"),
       "wrap": ("mathx", "wrap", "wrap"), "lerp": ("mathx", "lerp", "lerp")}
MOD_ALIASES = {"geo": ["g", "sphere", "geom"], "units": ["u", "lengths", "measure"],
               "mathx": ["mx", "numeric", "nums"], "timeutil": ["tu", "clock", "stamps"]}
FN_ALIASES = {"dist": ["distance_fn", "span_km", "gc_km"], "tom": ["to_meters_fn", "metres_of", "as_metres"],
              "parse": ["parse_iso_fn", "read_when", "stamp_of"], "clamp": ["limit", "pin", "keep_within"],
              "wrap": ["fold", "around"], "lerp": ["mix", "between"]}

# Each kind: the core keys it needs, and its body as (lines before the range call, the range
# call (key, value, lo, hi, result variable), lines after). The range call is where the
# indirect forms go.
KINDS = {
    "score": (["dist", "clamp"],
              ['d_km = {dist}(trip["start"], trip["end"])'],
              ("clamp", 'd_km * {k1} + trip["bias"]', "{k2}", 'trip["cap"]', "score"),
              ['return {{"score": round(score, 3)}}']),
    "length": (["tom", "clamp"],
               ['metres = {tom}(trip["raw_len"], trip["unit"])'],
               ("clamp", "metres / {k100}", "0", 'trip["cap"]', "capped"),
               ['return {{"metres": round(metres, 2), "capped": round(capped, 3)}}']),
    "time": (["parse", "clamp"],
             ['t = {parse}(trip["when"])'],
             ("clamp", "t.hour - {k2}", "0", "12", "lateness"),
             ['return {{"hour": t.hour, "weekday": t.weekday(), "late": lateness}}']),
    "combo": (["dist", "tom", "clamp"],
              ['d_km = {dist}(trip["start"], trip["end"])', 'metres = {tom}(trip["raw_len"], trip["unit"])'],
              ("clamp", "int(d_km // {k1})", "1", "5", "level"),
              ['return {{"ratio": round(metres / 1000 / max(d_km, 0.001), 4), "level": level}}']),
    "nested": (["dist", "parse", "clamp"],
               ['d_km = {dist}(trip["start"], trip["end"])', 't = {parse}(trip["when"])'],
               ("clamp", 'max(d_km, trip["bias"]) * ({k1} + t.minute / 60)', "min({k2}, 3)", 'trip["cap"] + 1', "value"),
               ['return {{"value": round(value, 3)}}']),
    "shift": (["parse", "wrap", "lerp"],
              ['t = {parse}(trip["when"])'],
              ("wrap", "t.hour + t.minute / 60 + {k1}", "0", "24", "slot"),
              ['share = {lerp}(trip["bias"], trip["cap"], slot / 24)',
               'return {{"slot": round(slot, 3), "share": round(share, 3)}}']),
    "heading": (["dist", "wrap", "lerp"],
                ['d_km = {dist}(trip["start"], trip["end"])'],
                ("wrap", 'd_km * {k1} + trip["bias"]', "-180", "180", "phase"),
                ['swing = {lerp}(0, trip["cap"], abs(phase) / 180)',
                 'return {{"phase": round(phase, 3), "swing": round(swing, 3)}}']),
}
CONST = {"0", "1", "5", "12", "24", "-180", "180"}

TEAMS = ["dispatch", "billing", "risk", "insights", "platform", "fleet-ops", "customer success"]
PEOPLE = ["A. Okafor", "M. Lindqvist", "R. Tanaka", "S. Brennan", "J. Moreau", "P. Havel", "L. Santos",
          "K. Iyer", "D. Novak", "E. Castillo"]
DASHBOARDS = ["daily trips", "driver week", "customer monthly", "depot map", "quarterly review",
              "on-call overview", "late arrivals", "invoice preview"]
KIND_TEXT = {
    "score": "Rates how far a trip went against what the customer's contract expects, with the "
             "customer's tuning numbers added on top, so that account managers can compare depots.",
    "length": "Reports the odometer length of a trip in metres and a capped share of it that the "
              "invoices use; the odometer may be in any of the length units the vans report.",
    "time": "Looks at when a trip started: the hour, the weekday and how late in the day it ran "
            "compared with the depot's opening hour.",
    "combo": "Compares the odometer length with the straight-line length of a trip, and sorts the "
             "trip into one of five levels by how far it went.",
    "nested": "Weighs the straight-line length of a trip by the minute it started, for the "
              "surcharge model that the pricing team tunes per customer.",
    "shift": "Moves the start of a trip into the local hour of another depot and spreads the "
             "customer's tuning range over the day accordingly.",
    "heading": "Turns the straight-line length of a trip into a phase on a dial, for the "
               "round-robin dispatch display, and how far the needle swings.",
}
HISTORY = [
    "rounding of the output settled at three digits after the invoice review",
    "moved into the {group} group when the plugins were split into packages",
    "the customer tuning numbers (bias, cap) became part of every trip",
    "output keys documented for the dashboards team",
    "a trip without an end point is rejected upstream now, not here",
    "checked against last quarter's numbers: no change",
    "the depot opening hour became a per-plugin constant",
    "results are cached by the caller; this module holds no state",
    "feet added to the odometer units the vans may report",
    "docstring rewritten for the new plugin catalogue",
    "the label bands below were agreed with {team}",
    "kept out of the nightly recomputation at {person}'s request",
]
NOTES = [
    "A trip is never changed here: run() reads the fields it needs and returns a new dict.",
    "The numbers are rounded only at the end, so that the dashboards and the invoices agree.",
    "The caller checks REQUIRED before it calls run(); _missing() is what it uses for the log.",
    "The bands in LABELS are for display only and do not change any number this module returns.",
    "Results of this plugin are compared every night with the previous night's run for the same trips.",
    "Trips recorded before the odometer units were added are converted upstream, not here.",
    "The customer tuning numbers come from the contract database; a missing one is an upstream error.",
    "Start times without an offset are the depot's local time written as UTC by the vans.",
    "If this metric ever needs a new trip field, add it to TRIP_FIELDS in the package first.",
    "The plugin is pure: the same trip always gives the same result, whatever ran before it.",
]
LABEL_WORDS = ["none", "low", "moderate", "high", "extreme", "quiet", "busy", "peak"]


def filler(name, group, kind, keys):
    """A realistic module docstring and local helpers that do not use the core."""
    team, person = rng.choice(TEAMS), rng.choice(PEOPLE)
    dash = ", ".join(sorted(rng.sample(DASHBOARDS, 2)))
    hist = []
    year, month = 2019 + rng.randint(0, 2), rng.randint(1, 12)
    for h in rng.sample(HISTORY, rng.randint(4, 6)):
        month += rng.randint(2, 9)
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        hist.append(f"  {year}-{month:02d}  " + h.format(group=group, team=team, person=person))
    doc = [f'"""Plugin {name}: {kind} metric for a trip ({group}).', "",
           KIND_TEXT[kind], f"Owner: the {team} team ({person}). Shown on: {dash}.", "",
           " ".join(rng.sample(NOTES, 4)), "",
           "History:"] + hist + ["", f"Output keys: {keys}.", '"""']
    bands = sorted(rng.sample(range(1, 60), 3))
    words = rng.sample(LABEL_WORDS, 4)
    labels = ", ".join([f'(0, "{words[0]}")'] + [f'({b}, "{w}")' for b, w in zip(bands, words[1:])])
    needed = sorted(rng.sample(["start", "end", "raw_len", "unit", "when", "bias", "cap"], 3))
    helpers = [
        f"LABELS = ({labels})",
        f"REQUIRED = {tuple(needed)!r}",
        "", "",
        "def _label(number):",
        '    """The dashboard band of a result number (the highest floor it reaches)."""',
        "    found = LABELS[0][1]",
        "    for floor, word in LABELS:",
        "        if number >= floor:",
        "            found = word",
        "    return found",
        "", "",
        "def _missing(trip):",
        '    """The required trip fields this trip lacks (the caller logs them)."""',
        "    return [field for field in REQUIRED if field not in trip]",
        "", "",
        "def describe(result):",
        '    """One log line for a result of run()."""',
        '    return NAME + ": " + ", ".join(f"{key}={result[key]} ({_label(result[key])})" for key in sorted(result)'
        ' if not isinstance(result[key], str))',
    ]
    return doc, helpers


def plan(i):
    """Everything about plugin i that both its v2 and its v3 text depend on."""
    group = GROUPS[i % len(GROUPS)]
    name = f"{group}_{i:03d}"
    local_clamp = i % 17 == 5
    kind = rng.choice(list(KINDS)) if not local_clamp else rng.choice(["score", "length", "time", "combo", "nested"])
    style = rng.choice(["module", "names", "aliases"])
    k1, k2 = rng.randint(2, 9), rng.randint(0, 4)
    needs, before, rcall, after = KINDS[kind]
    _, _, lo, hi, _ = rcall
    form = "direct"
    if not local_clamp:
        roll = rng.random()
        choices = ["toolkit", "table", "star", "kwargs"] + (["partial"] if lo in CONST and hi in CONST else [])
        if roll < 0.2:
            form = choices[int(roll / 0.2 * len(choices))]
    aliases = {}
    if style == "aliases":
        for key in needs:
            mod = API[key][0]
            if rng.random() < 0.5:
                aliases[key] = ("module", rng.choice(MOD_ALIASES[mod]))
            else:
                aliases[key] = ("fn", rng.choice(FN_ALIASES[key]))
        # one alias per module: the first choice for a module wins
        first = {}
        for key in needs:
            mod = API[key][0]
            if aliases[key][0] == "module":
                first.setdefault(mod, aliases[key][1])
                aliases[key] = ("module", first[mod])
    keys = ", ".join(k.split('"')[1] for k in after[-1].split("{{", 1)[1].split(", ") if '"' in k)
    doc, helpers = filler(name, group, kind, keys)
    return dict(i=i, group=group, name=name, local_clamp=local_clamp, kind=kind, style=style, k1=k1, k2=k2,
                form=form, aliases=aliases, doc=doc, helpers=helpers,
                tname=rng.choice(["STEPS", "OPS", "CALC", "FUNCS"]),
                pname=rng.choice(["_in_range", "_bounded", "_to_band", "_fit"]),
                vname=rng.choice(["window", "span_args", "triple", "args"]),
                kname=rng.choice(["bounds", "limits", "band", "edges"]))


def import_lines(p, keys, v3, plain=False):
    """Import lines and {key: expression that reaches the function} for the given keys."""
    lines, n = [], {}
    ver = 2 if v3 else 1
    if plain:
        for mod in sorted({API[k][0] for k in keys}):
            lines.append(f"import fleet.core.{mod}")
        return lines, {k: f"fleet.core.{API[k][0]}.{API[k][ver]}" for k in keys}
    if p["style"] == "module":
        mods = sorted({API[k][0] for k in keys})
        if mods:
            lines.append(f"from fleet.core import {', '.join(mods)}")
        return lines, {k: f"{API[k][0]}.{API[k][ver]}" for k in keys}
    if p["style"] == "names":
        by_mod = {}
        for k in keys:
            by_mod.setdefault(API[k][0], []).append(API[k][ver])
            n[k] = API[k][ver]
        for mod in sorted(by_mod):
            lines.append(f"from fleet.core.{mod} import {', '.join(sorted(by_mod[mod]))}")
        return lines, n
    for k in keys:
        what, alias = p["aliases"][k]
        mod = API[k][0]
        if what == "module":
            line = f"import fleet.core.{mod} as {alias}"
            n[k] = f"{alias}.{API[k][ver]}"
        else:
            line = f"from fleet.core.{mod} import {API[k][ver]} as {alias}"
            n[k] = alias
        if line not in lines:
            lines.append(line)
    return sorted(lines), n


def render(p, v3, alt=False):
    needs, before, rcall, after = KINDS[p["kind"]]
    rkey, value, lo, hi, var = rcall
    fmt = dict(k1=p["k1"], k2=p["k2"], k100=p["k1"] * 100)
    value, lo, hi = (s.format(**fmt) for s in (value, lo, hi))
    form = "direct" if v3 else p["form"]
    core_keys = [k for k in needs if not (p["local_clamp"] and k == "clamp")
                 and not (form == "toolkit" and k == rkey)]
    lines, n = import_lines(p, core_keys, v3, plain=alt)
    top = []
    if form == "toolkit":
        lines.append(f"from fleet.plugins.toolkit import {TOOLKIT_NAMES[rkey]}")
        n[rkey] = TOOLKIT_NAMES[rkey]
    if p["local_clamp"]:
        n["clamp"] = "clamp"
    fmt.update(n)
    body = [s.format(**fmt) for s in before]
    if v3 and rkey in ("clamp", "wrap") and not p["local_clamp"]:
        if alt:
            body.append(f"{var} = {n[rkey]}(lo={lo}, hi={hi}, value={value})")
        else:
            body.append(f"{var} = {n[rkey]}({lo}, {hi}, {value})")
    elif form in ("direct", "toolkit"):
        body.append(f"{var} = {n[rkey]}({value}, {lo}, {hi})")
    elif form == "partial":
        lines.insert(0, "from functools import partial")
        top.append(f"{p['pname']} = partial({n[rkey]}, lo={lo}, hi={hi})")
        body.append(f"{var} = {p['pname']}({value})")
    elif form == "table":
        entries = [f'"{rkey}": {n[rkey]}']
        others = [k for k in core_keys if k != rkey]
        if others and p["i"] % 2:
            entries.insert(0, f'"{others[0]}": {n[others[0]]}')
        top.append(f"{p['tname']} = {{{', '.join(entries)}}}")
        body.append(f'{var} = {p["tname"]}["{rkey}"]({value}, {lo}, {hi})')
    elif form == "star":
        body.append(f"{p['vname']} = ({value}, {lo}, {hi})")
        body.append(f"{var} = {n[rkey]}(*{p['vname']})")
    elif form == "kwargs":
        body.insert(0, f'{p["kname"]} = {{"lo": {lo}, "hi": {hi}}}')
        body.append(f"{var} = {n[rkey]}({value}, **{p['kname']})")
    if alt:
        body.insert(0, "# v2 called the functions without the fleet.core prefix here.")
    body += [s.format(**fmt) for s in after]
    if v3:
        body = [s.replace(n["tom"] + "(trip[\"raw_len\"], trip[\"unit\"])",
                          n["tom"] + "(trip[\"raw_len\"], trip[\"unit\"], \"m\")") if "tom" in n else s for s in body]
    src = list(p["doc"]) + lines + [""]
    if p["local_clamp"]:
        src += ["", "def clamp(value, lo, hi):",
                '    """Local helper (value first), kept from the v1 days: not the core one."""',
                "    return lo if value < lo else hi if value > hi else value", ""]
    src += ["", f'NAME = "{p["name"]}"'] + (['__all__ = ["NAME", "run", "describe"]'] if alt else [])
    src += p["helpers"][:2] + top + p["helpers"][2:]
    src += ["", "", "def run(trip):",
            f'    """Computes the {p["kind"]} metric of one trip (see fleet.plugins.TRIP_FIELDS)."""']
    src += ["    " + s for s in body]
    if alt:
        src += ["", "", 'if __name__ == "__main__":',
                '    print(describe(run({"start": (52.0, 4.0), "end": (52.1, 4.2), "raw_len": 9, "unit": "km",'
                ' "when": "2024-01-01T08:00:00", "bias": 1, "cap": 40})))']
    return "\n".join(src) + "\n"


PLUGINS_INIT = '''"""Trip metric plugins: every module in a group package defines NAME and run(trip).

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
'''


def write_tree(root, core, texts):
    if os.path.exists(os.path.join(root, "fleet")):
        shutil.rmtree(os.path.join(root, "fleet"))
    os.makedirs(os.path.join(root, "fleet/core"))
    with open(os.path.join(root, "fleet/__init__.py"), "w") as f:
        f.write('"""fleet: trip analytics. Plugins in fleet.plugins compute one metric each."""\n')
    for fn, text in core.items():
        with open(os.path.join(root, "fleet/core", fn), "w") as f:
            f.write(text)
    os.makedirs(os.path.join(root, "fleet/plugins"))
    with open(os.path.join(root, "fleet/plugins/__init__.py"), "w") as f:
        f.write(PLUGINS_INIT)
    with open(os.path.join(root, "fleet/plugins/toolkit.py"), "w") as f:
        f.write(TOOLKIT)
    for g in GROUPS:
        os.makedirs(os.path.join(root, "fleet/plugins", g))
        with open(os.path.join(root, "fleet/plugins", g, "__init__.py"), "w") as f:
            f.write(f'"""{g} plugins."""\n')
    for (group, name), text in texts.items():
        with open(os.path.join(root, "fleet/plugins", group, name + ".py"), "w") as f:
            f.write(text)


TRIPS = [
    {"start": [52.52, 13.405], "end": [48.1351, 11.582], "raw_len": 362.5, "unit": "mi",
     "when": "2024-07-14T08:31:36Z", "bias": 2.5, "cap": 900},
    {"start": [53.5511, 9.9937], "end": [53.5621, 10.0011], "raw_len": 4200, "unit": "ft",
     "when": "2024-07-13T23:05:00+02:00", "bias": 0.0, "cap": 6},
    {"start": [40.7128, -74.006], "end": [34.0522, -118.2437], "raw_len": 4501.2, "unit": "km",
     "when": "2024-12-31T17:59:59", "bias": 10.0, "cap": 50},
    {"start": [48.8566, 2.3522], "end": [48.8606, 2.3376], "raw_len": 0.7, "unit": "mi",
     "when": "2024-03-02T04:45:00-05:00", "bias": -3.0, "cap": 30},
]
# Two plugins (direct calls, no local helper, of the module style) that the oracle writes in
# other right forms: the first two such after plugin 50.
ALT = ()

if __name__ == "__main__":
    plans = [plan(i) for i in range(200)]
    ALT = tuple(p["name"] for p in plans if p["i"] > 50 and p["form"] == "direct" and not p["local_clamp"]
                and p["style"] == "module" and p["kind"] in ("combo", "heading"))[:2]
    v2 = {(p["group"], p["name"]): render(p, False) for p in plans}
    v3 = {(p["group"], p["name"]): render(p, True, alt=p["name"] in ALT) for p in plans}
    for p in plans:
        if p["name"] in ALT:
            assert p["form"] == "direct" and not p["local_clamp"], p["name"]
    write_tree(WS, NEW_CORE, v2)
    if os.path.exists(MIGRATED):
        shutil.rmtree(MIGRATED)
    for (group, name), text in v3.items():
        os.makedirs(os.path.join(MIGRATED, group), exist_ok=True)
        with open(os.path.join(MIGRATED, group, name + ".py"), "w") as f:
            f.write(text)
    results = {}
    for label, core, texts in (("v2", OLD_CORE, v2), ("v3", NEW_CORE, v3)):
        tmp = tempfile.mkdtemp()
        write_tree(tmp, core, texts)
        sys.path.insert(0, tmp)
        out = {}
        for group, name in texts:
            spec = importlib.util.spec_from_file_location(f"fleet.plugins.{group}.{name}", os.path.join(tmp, "fleet/plugins", group, name + ".py"))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            out[f"{group}/{name}"] = [mod.run(dict(t)) for t in TRIPS]
        sys.path.remove(tmp)
        for m in [m for m in sys.modules if m == "fleet" or m.startswith("fleet.")]:
            del sys.modules[m]
        shutil.rmtree(tmp)
        results[label] = json.loads(json.dumps(out))
    assert results["v2"] == results["v3"], "the oracle's v3 plugins compute something else"
    expected = results["v2"]
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
        f.write("registry\t200\ncore\tunchanged\n")
    # The marked run (run_plugins.py --marked): the v2 plugins on a v2 core whose functions add
    # an argument-dependent amount to their results; the oracle's v3 plugins on the v3 core
    # marked the same way must agree, and every plugin's marked results must differ from its
    # unmarked ones (so a plugin that computes without the core shows).
    marked = {}
    for label, core, texts in (("v2", OLD_CORE, v2), ("v3", NEW_CORE, v3)):
        tmp = tempfile.mkdtemp()
        write_tree(tmp, core, texts)
        for mark in (False, True):
            run = subprocess.run([sys.executable, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]); import run_plugins; "
                                  "run_plugins.main(ws=sys.argv[2], mark=sys.argv[3] == '1')",
                                  os.path.join(HERE, "tests", "probes"), tmp, "1" if mark else "0"],
                                 capture_output=True, text=True, check=True)
            marked[label, mark] = run.stdout
        shutil.rmtree(tmp)
    with open(os.path.join(HERE, "expected/plugin_results.txt")) as f:
        assert marked["v2", False] == marked["v3", False] == f.read(), "run_plugins.py disagrees with the v2 results"
    assert marked["v2", True] == marked["v3", True], "the oracle's v3 plugins compute something else on the marked core"
    same = [a.split("\t")[0] for a, b in zip(marked["v2", False].splitlines(), marked["v2", True].splitlines())
            if a == b and not a.startswith(("core\t", "registry\t"))]
    assert not same, f"plugins whose results do not show the marked core: {same}"
    with open(os.path.join(HERE, "expected/plugin_results_marked.txt"), "w") as f:
        f.write(marked["v2", True])
    # What each plugin's migrated source must call (the v3 names of the core functions its
    # v2 source reached, however it reached them) and whether it keeps a local clamp helper:
    # the hidden static check (tests/test_api_static.py) parses every migrated plugin
    # against this.
    api = {}
    for p in plans:
        needs = KINDS[p["kind"]][0]
        api[f"{p['group']}/{p['name']}"] = {
            "calls": sorted(API[k][2] for k in needs if not (p["local_clamp"] and k == "clamp")),
            "local_clamp": p["local_clamp"],
        }
    with open(os.path.join(HERE, "tests/plugin_api.json"), "w") as f:
        json.dump(api, f, indent=0, sort_keys=True)
        f.write("\n")
    count = {}
    for p in plans:
        count.setdefault("kind " + p["kind"], 0)
        count["kind " + p["kind"]] += 1
        count.setdefault("form " + p["form"], []).append(p["name"]) if p["form"] != "direct" else None
    for k, v in sorted(count.items()):
        print(k, v if isinstance(v, int) else f"{len(v)}: {' '.join(v)}")
    print("local clamp:", sum(p["local_clamp"] for p in plans))
