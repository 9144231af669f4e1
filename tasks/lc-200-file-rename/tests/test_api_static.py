"""Hidden static checks of the v3 migration, read from the sources with Python's ast (no
workspace code runs here: the sources are read through the broker, before any test runs, by
conftest.snapshot): "callers must use the v3 API directly", so

- fleet/ holds exactly the files it shipped with (no compat module, no extension module or
  bytecode standing in for a plugin), and its package __init__ files are unchanged (no
  monkeypatching of the core from the plugins' package);
- every plugin imports only from fleet.core, and only v3 names;
- a plugin's top level is its docstring, its imports, NAME and run() (plus the local
  value-first clamp helper, unchanged, in the plugins that always had one): no wrapper,
  shim, alias assignment or lambda;
- inside run(), a core function is only ever called, never bound to another name or passed
  on; each plugin calls exactly the v3 functions its v2 code called, with their v3
  arity (convert to metres: a third argument "m").
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

V3 = {"geo": {"haversine_km"}, "units": {"convert"}, "mathx": {"clamp"}, "timeutil": {"parse_timestamp"}}
ARITY = {"haversine_km": 2, "convert": 3, "clamp": 3, "parse_timestamp": 1}
# fleet/plugins/__init__.py as shipped (the registry all_plugins()).
PLUGINS_INIT_SHA256 = "bbdd73f0fd7de6e62b0a3238881df1733c00bc80774fadd20360ee81c178a2da"
BANNED_NAMES = {"getattr", "setattr", "delattr", "__import__", "eval", "exec", "compile", "globals",
                "locals", "vars", "importlib", "sys", "__builtins__", "__dict__", "functools", "partial"}
LOCAL_CLAMP = '''def clamp(value, lo, hi):
    """Local helper (value first), kept from the v1 days: not the core one."""
    return lo if value < lo else hi if value > hi else value
'''
ALLOWED_BUILTINS = {"round", "max", "min", "int", "float", "abs"}


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
    extra = sorted(found - expected_files()) + odd
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


def sha_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Plugin:
    """A migrated plugin's source, resolved: which local names are core modules and which
    are core functions."""

    def __init__(self, key):
        self.key = key
        self.src = source(f"fleet/plugins/{key}.py")
        self.tree = ast.parse(self.src)
        self.modules, self.funcs, self.problems = {}, {}, []

    def fail(self, what):
        self.problems.append(what)


def check(key):
    p = Plugin(key)
    spec = API[key]
    body = list(p.tree.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    run, local = None, None
    for node in body:
        if isinstance(node, ast.ImportFrom):
            if node.level or not node.module:
                p.fail(f"line {node.lineno}: relative import")
            elif node.module == "fleet.core":
                for a in node.names:
                    if a.name not in V3:
                        p.fail(f"line {node.lineno}: imports {a.name} from fleet.core")
                    p.modules[a.asname or a.name] = a.name
            elif node.module.startswith("fleet.core.") and node.module[11:] in V3:
                for a in node.names:
                    if a.name not in V3[node.module[11:]]:
                        p.fail(f"line {node.lineno}: imports {a.name} from {node.module} (not a v3 name)")
                    p.funcs[a.asname or a.name] = a.name
            else:
                p.fail(f"line {node.lineno}: imports from {node.module} (only fleet.core may be imported)")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("fleet.core.") and a.name[11:] in V3 and a.asname:
                    p.modules[a.asname] = a.name[11:]
                else:
                    p.fail(f"line {node.lineno}: import {a.name} (only fleet.core modules, as a name)")
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "NAME"
              and isinstance(node.value, ast.Constant) and node.value.value == key.split("/")[1]):
            pass
        elif isinstance(node, ast.FunctionDef) and node.name == "run" and run is None:
            run = node
        elif (isinstance(node, ast.FunctionDef) and node.name == "clamp" and spec["local_clamp"]
              and local is None):
            local = node
            if ast.dump(node) != ast.dump(ast.parse(LOCAL_CLAMP).body[0]):
                p.fail("the local clamp helper was changed")
        else:
            p.fail(f"line {getattr(node, 'lineno', '?')}: {type(node).__name__} at top level "
                   "(a plugin holds its imports, NAME and run() only: no wrappers, shims or aliases)")
    if run is None:
        p.fail("no run(trip)")
        return p
    if spec["local_clamp"] and local is None:
        p.fail("the local clamp helper is gone")
    if spec["local_clamp"] and "clamp" in p.funcs:
        p.fail("the local clamp helper is shadowed by an import")
    args = run.args
    if [a.arg for a in args.args] != ["trip"] or args.vararg or args.kwarg or args.kwonlyargs or args.defaults:
        p.fail("run() must take exactly (trip)")
    called = set()
    func_nodes = set()
    for node in ast.walk(run):
        if isinstance(node, ast.Call):
            func_nodes.add(id(node.func))
    for node in ast.walk(run):
        if node is not run and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                                  ast.ClassDef, ast.Import, ast.ImportFrom,
                                                  ast.Global, ast.Nonlocal)):
            p.fail(f"line {node.lineno}: {type(node).__name__} inside run()")
        if isinstance(node, ast.Name) and node.id in BANNED_NAMES:
            p.fail(f"line {node.lineno}: uses {node.id}")
        if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            p.fail(f"line {node.lineno}: uses {node.attr}")
        core = None
        if isinstance(node, ast.Name) and node.id in p.funcs:
            core = p.funcs[node.id]
        elif isinstance(node, ast.Name) and node.id in p.modules:
            if not any(isinstance(parent, ast.Attribute) and parent.value is node
                       for parent in ast.walk(run)):
                p.fail(f"line {node.lineno}: the module {node.id} used other than as module.function")
            continue
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id in p.modules):
            if node.attr not in V3[p.modules[node.value.id]]:
                p.fail(f"line {node.lineno}: {node.value.id}.{node.attr} is not a v3 function")
                continue
            core = node.attr
        if core is None:
            continue
        if id(node) not in func_nodes:
            p.fail(f"line {node.lineno}: {core} used other than by calling it (an alias or a wrapper)")
            continue
        called.add(core)
    for node in ast.walk(run):
        if not isinstance(node, ast.Call) or id(node.func) not in func_nodes:
            continue
        f = node.func
        name = None
        if isinstance(f, ast.Name):
            name = p.funcs.get(f.id)
            if name is None and f.id not in ALLOWED_BUILTINS and not (f.id == "clamp" and local is not None):
                p.fail(f"line {node.lineno}: calls {f.id}()")
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in p.modules:
            name = f.attr
        if name is None:
            continue
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) != ARITY.get(name, -1):
            p.fail(f"line {node.lineno}: {name} called with {len(node.args)} positional arguments "
                   f"(v3 takes {ARITY.get(name)})")
        elif name == "convert" and not (isinstance(node.args[2], ast.Constant) and node.args[2].value == "m"):
            p.fail(f"line {node.lineno}: convert must convert to metres (\"m\"), like to_meters did")
    if called != set(spec["calls"]):
        p.fail(f"calls the core's {sorted(called)}; its v2 code called the v3 equivalents of {spec['calls']}")
    return p


@pytest.mark.parametrize("group", ["routing", "pricing", "safety", "reporting", "telemetry"])
def test_plugins_call_the_v3_api_directly(group):
    problems = []
    for key in sorted(k for k in API if k.startswith(group + "/")):
        p = check(key)
        problems += [f"{key}: {what}" for what in p.problems]
    assert not problems, f"{len(problems)} problems, first: {problems[:8]}"
