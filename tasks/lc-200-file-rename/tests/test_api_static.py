"""Hidden static checks of the v3 migration, read from the sources with Python's ast (no
workspace code runs here: the sources are read through the broker, before any test runs, by
conftest.snapshot). Each check is a rule the instruction states, and nothing else:

- "add no files under fleet/", "no helper module": fleet/ holds exactly the files it shipped
  with (no compat module, no extension module or bytecode standing in for a plugin), except
  that the plugins' own fleet/plugins/toolkit.py (short names for core functions, which no
  migrated plugin may import) may be deleted; if it stays, it stays as shipped;
- "leave fleet/core and the package __init__.py files as they are" (no patching of the core
  from the plugins' package);
- "a plugin imports nothing but fleet.core (in any import form)": `import fleet.core.geo`,
  `import fleet.core.geo as g`, `from fleet.core import geo`, `from fleet import core`,
  `from fleet.core.geo import haversine_km [as h]`, `import fleet[.core]`; only v3 names;
- "call the v3 functions of fleet.core directly, from run() itself", "no aliases, wrappers
  or shims, no patching of the core": a core function (however it is reached: `geo.f`,
  `fleet.core.geo.f`, an imported name) is only ever called, never bound to another name or
  passed on, and only in run() itself (not at top level, nor in another function or a
  lambda); a core module is only used to reach what it holds; nothing is assigned to or
  deleted from anything reached through the core, and no name an import of the core bound
  is bound again (a shim under the core's name);
- "opens no file, looks nothing up and runs nothing dynamically": none of the names the
  instruction lists (open, help and breakpoint among them), none of the frame attributes it
  lists, no dunder attribute, no dunder name but __name__, __doc__, __file__ and __all__;
- "leave the plugins' own local helpers as they are": the local value-first clamp helper,
  unchanged, in the plugins that always had one;
- "every plugin computes exactly what it computed on v2 for any trip": each plugin calls
  exactly the v3 functions its v2 code called, each call binds to the v3 signature, and
  convert converts to metres ("m"), as to_meters did.

Anything else (helper functions that do not touch the core, constants, other builtins,
keyword arguments, a __main__ block) is the plugin's own business. Patching the core by a
route these checks cannot see is caught by behaviour: run_plugins.py reports whether the
core's modules still hold what they held before any plugin was imported.
"""
import ast
import hashlib
import json
import pathlib

import pytest

from conftest import snapshot

HERE = pathlib.Path(__file__).resolve().parent
with open(HERE / "plugin_api.json", encoding="utf-8") as f:
    API = json.load(f)

V3 = {"geo": {"haversine_km"}, "units": {"convert"}, "mathx": {"clamp", "wrap", "lerp"},
      "timeutil": {"parse_timestamp"}}
SIGNATURE = {"haversine_km": ("a", "b"), "convert": ("value", "from_unit", "to_unit"),
             "clamp": ("lo", "hi", "value"), "wrap": ("lo", "hi", "value"), "lerp": ("lo", "hi", "t"),
             "parse_timestamp": ("text",)}
# fleet/plugins/toolkit.py as shipped: the plugins' own module of short names for core
# functions. After the migration no plugin imports it ("a plugin imports nothing but
# fleet.core"); it may stay as shipped ("leave the plugins' own local helpers as they are")
# or be deleted (nothing uses it any more), but not changed (a compatibility wrapper).
TOOLKIT = "fleet/plugins/toolkit.py"
TOOLKIT_SHA256 = "6d3ea1dc6ae9007e6beaef6e3ff35d8ed0df2b00bba5c60b7424d97c3fc7dc1c"
# fleet/plugins/__init__.py as shipped (the registry all_plugins()).
PLUGINS_INIT_SHA256 = "bbdd73f0fd7de6e62b0a3238881df1733c00bc80774fadd20360ee81c178a2da"
# The dynamic look-ups and code the instruction names.
DYNAMIC = {"getattr", "setattr", "delattr", "globals", "locals", "vars", "exec", "eval", "compile",
           "__import__", "open", "help", "breakpoint"}
# The frame attributes the instruction names (a frame reaches any module's globals).
FRAMES = {"gi_frame", "cr_frame", "ag_frame", "tb_frame", "f_back", "f_globals", "f_locals", "f_builtins"}
REMOVED = {"distance", "to_meters", "parse_iso"}
DUNDER_NAMES_ALLOWED = {"__name__", "__doc__", "__file__", "__all__"}
LOCAL_CLAMP = '''def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value
'''


def source(rel):
    """A workspace file's text, as read by conftest.snapshot."""
    data = snapshot()[0].get(rel)
    assert data is not None, f"{rel} is missing, or not a regular file"
    return data.decode("utf-8")


def expected_files():
    files = {"fleet/__init__.py", "fleet/plugins/__init__.py"}
    files |= {f"fleet/core/{m}.py" for m in V3} | {"fleet/core/__init__.py"}
    files |= {f"fleet/plugins/{g}/__init__.py" for g in ("routing", "pricing", "safety", "reporting", "telemetry")}
    files |= {f"fleet/plugins/{k}.py" for k in API}
    return files


def test_fleet_holds_only_its_own_files():
    # Byte code in `__pycache__` folders is never read, so it is left out; anything else there,
    # and a .pyc anywhere else, is an extra file.
    files, odd = snapshot()
    found = set(files)
    extra = sorted(found - expected_files() - {TOOLKIT}) + odd
    missing = sorted(expected_files() - found)
    assert not extra, f"files that are not part of fleet: {extra[:10]}"
    assert not missing, f"files missing: {missing[:10]}"


def test_package_init_files_unchanged():
    # Shipped text of the package files the plugins load through; a shim there (patching
    # fleet.core at import time) would be a compatibility wrapper.
    want = {
        "fleet/__init__.py": '"""fleet: trip analytics. Plugins in fleet.plugins compute one metric each."""\n',
    }
    for g in ("routing", "pricing", "safety", "reporting", "telemetry"):
        want[f"fleet/plugins/{g}/__init__.py"] = f'"""{g} plugins."""\n'
    for rel, text in want.items():
        assert source(rel) == text, f"{rel} was changed"
    init = source("fleet/plugins/__init__.py")
    assert sha_text(init) == PLUGINS_INIT_SHA256, "fleet/plugins/__init__.py was changed"


def test_toolkit_unchanged_or_deleted():
    files, _ = snapshot()
    if TOOLKIT in files:
        assert hashlib.sha256(files[TOOLKIT]).hexdigest() == TOOLKIT_SHA256, f"{TOOLKIT} was changed"


def sha_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dunder(name):
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


class Plugin:
    """A migrated plugin's source and what its names are bound to by imports of the core:
    ("pkg", "fleet" | "fleet.core"), ("module", m) or ("func", f)."""

    def __init__(self, key):
        self.key = key
        self.src = source(f"fleet/plugins/{key}.py")
        self.tree = ast.parse(self.src)
        self.core_names, self.problems = {}, []

    def fail(self, node, what):
        self.problems.append(f"line {getattr(node, 'lineno', '?')}: {what}")

    def resolve(self, node):
        """What an expression reaches in the core, or None."""
        if isinstance(node, ast.Name):
            return self.core_names.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None:
                return None
            kind, what = base
            if kind == "pkg" and what == "fleet":
                return ("pkg", "fleet.core") if node.attr == "core" else ("elsewhere", f"fleet.{node.attr}")
            if kind == "pkg":
                return ("module", node.attr) if node.attr in V3 else ("elsewhere", f"fleet.core.{node.attr}")
            if kind == "module" and node.attr in V3[what]:
                return ("func", node.attr)
            return ("data", f"{what}.{node.attr}")
        return None


def collect_imports(p):
    """Binds the names the plugin's imports give, anywhere in it; fails any other import."""
    for node in ast.walk(p.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] != "fleet" or len(parts) > 3 or (len(parts) > 1 and parts[1] != "core") \
                        or (len(parts) == 3 and parts[2] not in V3):
                    p.fail(node, f"import {a.name} (a plugin imports nothing but fleet.core)")
                elif a.asname:
                    target = {1: ("pkg", "fleet"), 2: ("pkg", "fleet.core")}.get(len(parts), ("module", parts[-1]))
                    p.core_names[a.asname] = target
                else:
                    p.core_names[parts[0]] = ("pkg", "fleet")
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                p.fail(node, "a relative import (a plugin imports nothing but fleet.core)")
                continue
            if mod == "fleet":
                allowed = {"core": ("pkg", "fleet.core")}
            elif mod == "fleet.core":
                allowed = {m: ("module", m) for m in V3}
            elif mod.startswith("fleet.core.") and mod[11:] in V3:
                # Its functions, and what else it holds (a constant), by name.
                allowed = {a.name: ("func", a.name) if a.name in V3[mod[11:]] else ("data", f"{mod[11:]}.{a.name}")
                           for a in node.names if a.name != "*" and a.name not in REMOVED}
                allowed.update({f: ("func", f) for f in V3[mod[11:]]})
            else:
                p.fail(node, f"imports from {mod} (a plugin imports nothing but fleet.core)")
                continue
            for a in node.names:
                if a.name == "*":
                    p.core_names.update({name: t for name, t in allowed.items() if t[0] == "func"})
                elif a.name in REMOVED:
                    p.fail(node, f"imports {a.name} from {mod} (a removed v2 name)")
                elif a.name not in allowed:
                    p.fail(node, f"imports {a.name} from {mod} (not a v3 name of fleet.core)")
                else:
                    p.core_names[a.asname or a.name] = allowed[a.name]


def bound_names(tree):
    """(name, node) for every binding other than an import."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id, node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node
        elif isinstance(node, ast.arg):
            yield node.arg, node
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, node
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            yield node.name, node
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest, node


def convert_target(p, node):
    """The to_unit argument of a convert call, when it is plainly "m"."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        values = [n for name, n in bound_names(p.tree) if name == node.id]
        assigns = [n for n in p.tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                   and isinstance(n.targets[0], ast.Name) and n.targets[0].id == node.id]
        if len(values) == 1 and len(assigns) == 1 and isinstance(assigns[0].value, ast.Constant):
            return assigns[0].value.value
    return None


def check(key):
    p = Plugin(key)
    spec = API[key]
    collect_imports(p)
    top = {}
    for node in p.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            top.setdefault(node.name, []).append(node)
    runs = [n for n in top.get("run", []) if isinstance(n, ast.FunctionDef)]
    if len(top.get("run", [])) != 1 or len(runs) != 1:
        p.fail(p.tree, "no single run() defined at top level")
        return p
    run = runs[0]
    local = top.get("clamp", [])
    if spec["local_clamp"]:
        if len(local) != 1 or ast.dump(local[0]) != ast.dump(ast.parse(LOCAL_CLAMP).body[0]):
            p.fail(local[0] if local else p.tree, "the local clamp helper is gone or was changed")
    # A name an import of the core bound, bound again: a shim under the core's name (the
    # local clamp helper of the plugins that have one is the one binding of its name).
    for name, node in bound_names(p.tree):
        if name in p.core_names:
            p.fail(node, f"binds {name} again, which an import of fleet.core bound")
    # Where everything that reaches the core is, and how it is used.
    in_run = {id(n) for n in ast.walk(run)}
    nested = {id(n) for f in ast.walk(run) if f is not run
              and isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
              for n in ast.walk(f)}
    parent = {}
    for node in ast.walk(p.tree):
        for child in ast.iter_child_nodes(node):
            parent[id(child)] = node
    called = set()
    for node in ast.walk(p.tree):
        if isinstance(node, ast.Name) and (node.id in DYNAMIC or (dunder(node.id) and node.id not in DUNDER_NAMES_ALLOWED)):
            p.fail(node, f"uses {node.id} (no dynamic look-up or code)")
        if isinstance(node, ast.Attribute) and dunder(node.attr):
            p.fail(node, f"uses .{node.attr} (no dunder attribute)")
        if isinstance(node, ast.Attribute) and node.attr in FRAMES:
            p.fail(node, f"uses .{node.attr} (no frame)")
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)) and p.resolve(base) is None:
                base = base.value
            if p.resolve(base) is not None:
                p.fail(node, f"assigns to or deletes {ast.unparse(node)} (no patching of the core)")
        if not isinstance(node, (ast.Name, ast.Attribute)):
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            base = node.value
            while isinstance(base, (ast.Subscript, ast.Attribute)) and p.resolve(base) is None:
                base = base.value
            if p.resolve(base) is not None and p.resolve(node) is None:
                p.fail(node, f"assigns to or deletes {ast.unparse(node)} (no patching of the core)")
        r = p.resolve(node)
        if r is None:
            continue
        up = parent.get(id(node))
        if isinstance(up, ast.Attribute) and up.value is node and r[0] in ("pkg", "module", "data"):
            continue  # reaching further in: the outer node is judged
        kind, what = r
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            p.fail(node, f"assigns to or deletes {ast.unparse(node)} (no patching of the core)")
        elif kind == "elsewhere":
            p.fail(node, f"reaches {what} (a plugin uses nothing but fleet.core)")
        elif kind in ("pkg", "module"):
            p.fail(node, f"uses the module {ast.unparse(node)} other than to reach what it holds")
        elif kind == "func":
            if not (isinstance(up, ast.Call) and up.func is node):
                p.fail(node, f"{what} used other than by calling it (an alias or a wrapper)")
            elif id(node) not in in_run or id(node) in nested:
                p.fail(node, f"{what} called outside run() itself (a wrapper, or a call run() does not make)")
            else:
                called.add(what)
                check_call(p, up, what)
        # ("data", ...): reading what a core module holds (geo.EARTH_RADIUS_KM) is allowed.
    if called != set(spec["calls"]):
        p.fail(run, f"calls the core's {sorted(called)}; its v2 code called the v3 equivalents of {spec['calls']}")
    return p


def check_call(p, call, name):
    """The call binds to the v3 signature; convert converts to metres."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return  # not bindable here; run_plugins.py's results judge it
    params = SIGNATURE[name]
    bound = dict(zip(params, call.args))
    ok = len(call.args) <= len(params)
    for k in call.keywords:
        ok = ok and k.arg in params and k.arg not in bound
        bound[k.arg] = k.value
    if not ok or set(bound) != set(params):
        p.fail(call, f"{name} called with arguments that do not fit v3's {name}({', '.join(params)})")
    elif name == "convert" and convert_target(p, bound["to_unit"]) != "m":
        p.fail(call, 'convert must convert to metres ("m"), like to_meters did')


@pytest.mark.parametrize("group", ["routing", "pricing", "safety", "reporting", "telemetry"])
def test_plugins_call_the_v3_api_directly(group):
    problems = []
    for key in sorted(k for k in API if k.startswith(group + "/")):
        p = check(key)
        problems += [f"{key}: {what}" for what in p.problems]
    assert not problems, f"{len(problems)} problems, first: {problems[:8]}"
