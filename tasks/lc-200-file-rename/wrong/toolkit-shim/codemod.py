"""Codemod (the scripted trajectory's, and, with a flag, each known-wrong variant's): moves
every plugin to the fleet core v3 API by following how each call in run() reaches the core:
an import of fleet.core in any form or under any name, the plugins' own toolkit module's
short names, a functools.partial or a dict of callables defined at top level, a tuple of
arguments passed with * or a dict of bounds passed with ** (both built in run()). Every such
call becomes a direct call `module.v3_name(args in v3 order)` with `from fleet.core import
...`; the indirections and their imports go; local helpers are left alone.

Wrong variants: --keep-wrap-order (wrap keeps the value first: the rule MIGRATION.md states
by behaviour missed), --keep-star (a call with *tuple left as it is), --keep-toolkit (toolkit
names still imported, toolkit.py turned into v2-order wrappers), --keep-partial (the partial
kept, pre-filled in v3 order), --keep-table (the dict of callables kept, called in v3 order),
--swap-every-clamp (the plugins' own value-first clamp helpers called bounds first too)."""
import ast
import pathlib
import sys

KEEP_WRAP = "--keep-wrap-order" in sys.argv
KEEP_STAR = "--keep-star" in sys.argv
KEEP_TOOLKIT = "--keep-toolkit" in sys.argv
KEEP_PARTIAL = "--keep-partial" in sys.argv
KEEP_TABLE = "--keep-table" in sys.argv
SWAP_EVERY_CLAMP = "--swap-every-clamp" in sys.argv
CORE = {"geo", "units", "mathx", "timeutil"}
# v2 name -> (v3 name, v2 parameters, v3 parameters; a constant default for a new one)
V2 = {"distance": ("haversine_km", ("a", "b"), ("a", "b")),
      "haversine_km": ("haversine_km", ("a", "b"), ("a", "b")),
      "to_meters": ("convert", ("value", "unit"), ("value", "unit", '"m"')),
      "convert": ("convert", ("value", "from_unit", "to_unit"), ("value", "from_unit", "to_unit")),
      "parse_iso": ("parse_timestamp", ("text",), ("text",)),
      "parse_timestamp": ("parse_timestamp", ("text",), ("text",)),
      "clamp": ("clamp", ("value", "lo", "hi"), ("lo", "hi", "value")),
      "wrap": ("wrap", ("value", "lo", "hi"), ("lo", "hi", "value")),
      "lerp": ("lerp", ("lo", "hi", "t"), ("lo", "hi", "t"))}
if KEEP_WRAP:
    V2["wrap"] = ("wrap", ("value", "lo", "hi"), ("value", "lo", "hi"))


def toolkit_names():
    """{short name: (core module, function)} from fleet/plugins/toolkit.py's imports."""
    out = {}
    tree = ast.parse(pathlib.Path("fleet/plugins/toolkit.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fleet.core."):
            for a in node.names:
                out[a.asname or a.name] = (node.module.split(".")[2], a.name)
    return out


TOOLKIT = toolkit_names()


def offsets(src):
    starts, pos = [0], 0
    for line in src.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    return lambda lineno, col: starts[lineno - 1] + col


def migrate(src):
    tree = ast.parse(src)
    seg = lambda n: ast.get_source_segment(src, n)  # noqa: E731
    at = offsets(src)
    fns, mods, partials, tables = {}, {}, {}, {}
    drop = []  # statements to delete
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "fleet.core":
            mods.update({a.asname or a.name: a.name for a in node.names if a.name in CORE})
            drop.append(node)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fleet.core."):
            fns.update({a.asname or a.name: (node.module.split(".")[2], a.name) for a in node.names})
            drop.append(node)
        elif isinstance(node, ast.Import) and all(a.name.startswith("fleet.core") for a in node.names):
            for a in node.names:
                parts = a.name.split(".")
                if len(parts) == 3 and a.asname:
                    mods[a.asname] = parts[2]
                elif len(parts) == 3:
                    mods["fleet.core." + parts[2]] = parts[2]
            drop.append(node)
        elif isinstance(node, ast.ImportFrom) and node.module == "fleet.plugins.toolkit" and not KEEP_TOOLKIT:
            fns.update({a.asname or a.name: TOOLKIT[a.name] for a in node.names})
            drop.append(node)
        elif isinstance(node, ast.ImportFrom) and node.module == "functools" and not KEEP_PARTIAL:
            drop.append(node)

    def resolve(f):
        """(core module, v2 function name) a call's func reaches directly, or None."""
        if isinstance(f, ast.Name) and f.id in fns:
            return fns[f.id]
        if isinstance(f, ast.Attribute) and seg(f.value) in mods:
            return mods[seg(f.value)], f.attr
        return None

    edits_top, used_top, kept_tables = [], set(), {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v, name = node.value, node.targets[0].id
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "partial" and resolve(v.args[0]):
                target, pos, kw = resolve(v.args[0]), [seg(a) for a in v.args[1:]], {k.arg: seg(k.value) for k in v.keywords}
                if KEEP_PARTIAL:
                    v3, params, new = V2[target[1]]
                    bound = dict(zip(params, pos))
                    bound.update(kw)
                    filled = [bound[p] for p in new if p in bound]
                    edits_top.append((at(v.lineno, v.col_offset), at(v.end_lineno, v.end_col_offset),
                                      f"partial({target[0]}.{v3}, {', '.join(filled)})"))
                    used_top.add(target[0])
                    continue
                partials[name] = (target, pos, kw)
                drop.append(node)
            elif isinstance(v, ast.Dict) and v.values and all(resolve(x) for x in v.values):
                if KEEP_TABLE:
                    for x in v.values:
                        mod, fn = resolve(x)
                        edits_top.append((at(x.lineno, x.col_offset), at(x.end_lineno, x.end_col_offset), f"{mod}.{V2[fn][0]}"))
                        used_top.add(mod)
                    kept_tables[name] = {k.value: resolve(x) for k, x in zip(v.keys, v.values)}
                    continue
                tables[name] = {k.value: resolve(x) for k, x in zip(v.keys, v.values)}
                drop.append(node)
    run = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run")
    local = {}  # names assigned a tuple or dict literal in run()
    for node in run.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, (ast.Tuple, ast.Dict)):
            local[node.targets[0].id] = node
    edits, used = edits_top, used_top
    local_defs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(run):
        if not isinstance(node, ast.Call):
            continue
        f, pos, kw = node.func, [], {}
        if isinstance(f, ast.Name) and f.id in partials:
            target, pos, kw = partials[f.id][0], list(partials[f.id][1]), dict(partials[f.id][2])
        elif isinstance(f, ast.Subscript) and isinstance(f.value, ast.Name) and f.value.id in tables:
            target = tables[f.value.id][f.slice.value]
        elif isinstance(f, ast.Subscript) and isinstance(f.value, ast.Name) and f.value.id in kept_tables:
            mod, name = kept_tables[f.value.id][f.slice.value]
            v3, params, new = V2[name]
            bound = dict(zip(params, [seg(a) for a in node.args]))
            edits.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset),
                          f"{seg(f)}({', '.join(bound.get(p, p) for p in new)})"))
            continue
        elif SWAP_EVERY_CLAMP and isinstance(f, ast.Name) and f.id == "clamp" and "clamp" in local_defs:
            args = [seg(a) for a in node.args]
            edits.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset),
                          f"clamp({', '.join(args[1:] + args[:1])})"))
            continue
        else:
            target = resolve(f)
        if target is None:
            continue
        mod, name = target
        v3, params, new = V2[name]
        keep = False
        for a in node.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id in local:
                if KEEP_STAR:
                    keep = True
                    break
                pos += [seg(e) for e in local.pop(a.value.id).value.elts]
            else:
                pos.append(seg(a))
        for k in node.keywords:
            if k.arg is None and isinstance(k.value, ast.Name) and k.value.id in local:
                d = local.pop(k.value.id).value
                kw.update({key.value: seg(val) for key, val in zip(d.keys, d.values)})
            else:
                kw[k.arg] = seg(k.value)
        if keep:
            text = f"{mod}.{v3}({', '.join(seg(a) for a in node.args)})"
        else:
            bound = dict(zip(params, pos))
            bound.update(kw)
            text = f"{mod}.{v3}({', '.join(bound.get(p, p) for p in new)})"
        used.add(mod)
        edits.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset), text))
    # the tuples and dicts that were spread into a call are gone with it
    for stmt in list(drop) + [n for n in run.body if isinstance(n, ast.Assign) and n not in local.values()
                              and isinstance(n.value, (ast.Tuple, ast.Dict)) and len(n.targets) == 1
                              and isinstance(n.targets[0], ast.Name)]:
        start, end = at(stmt.lineno, 0), at(stmt.end_lineno + 1, 0)
        edits.append((start, end, ""))
    first = min(at(n.lineno, 0) for n in drop) if drop else None
    if used and first is not None:
        edits.append((first, first, f"from fleet.core import {', '.join(sorted(used))}\n"))
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        src = src[:start] + text + src[end:]
    return src


changed = 0
for path in sorted(pathlib.Path("fleet/plugins").glob("*/*_[0-9][0-9][0-9].py")):
    old = path.read_text()
    new = migrate(old)
    if new != old:
        path.write_text(new)
        changed += 1
if KEEP_TOOLKIT:
    pathlib.Path("fleet/plugins/toolkit.py").write_text('''"""Short names for the core functions, in the v2 argument order."""
from fleet.core import geo, mathx, units

great_circle = geo.haversine_km
blend = mathx.lerp


def bounded(value, lo, hi):
    return mathx.clamp(lo, hi, value)


def cyclic(value, lo, hi):
    return mathx.wrap(lo, hi, value)


def convert_length(value, from_unit, to_unit):
    return units.convert(value, from_unit, to_unit)
''')
print(f"migrated {changed} files")
