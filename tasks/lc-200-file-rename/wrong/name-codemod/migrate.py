"""Oracle codemod: moves every plugin to the fleet core v3 API using the AST, so that only
calls that really resolve to fleet.core functions change (local clamp helpers stay).
--swap-every-clamp reproduces a known-wrong variant."""
import ast
import pathlib
import sys

SWAP_ALL = "--swap-every-clamp" in sys.argv
RENAME = {"distance": "haversine_km", "to_meters": "convert", "parse_iso": "parse_timestamp"}
CORE = {"geo", "units", "mathx", "timeutil"}


def offsets(src):
    starts, pos = [0], 0
    for line in src.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    return lambda lineno, col: starts[lineno - 1] + col


def migrate(src):
    tree = ast.parse(src)
    at = offsets(src)
    funcs, mods, edits = {}, {}, []   # local name -> core fn; local alias -> core module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "fleet.core":
            for a in node.names:
                if a.name in CORE:
                    mods[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("fleet.core."):
            parts = []
            for a in node.names:
                funcs[a.asname or a.name] = a.name
                new = RENAME.get(a.name, a.name)
                parts.append(f"{new} as {a.asname}" if a.asname else new)
            edits.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset),
                          f"from {node.module} import {', '.join(parts)}"))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("fleet.core."):
                    mods[a.asname or a.name] = a.name.rsplit(".", 1)[1]
    local_defs = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and (f.id in funcs and f.id not in local_defs or SWAP_ALL and f.id == "clamp"):
            fn, name_edit = funcs.get(f.id, "clamp"), None
            if f.id == fn and fn in RENAME:
                name_edit = RENAME[fn]
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in mods:
            fn = f.attr
            name_edit = None if fn not in RENAME else f"{f.value.id}.{RENAME[fn]}"
        else:
            continue
        func_src = name_edit or ast.get_source_segment(src, f)
        args = [ast.get_source_segment(src, a) for a in node.args]
        if fn == "clamp":
            args = args[1:] + args[:1]
        elif fn == "to_meters":
            args = args + ['"m"']
        edits.append((at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset),
                      f"{func_src}({', '.join(args)})"))
    for start, end, text in sorted(edits, reverse=True):
        src = src[:start] + text + src[end:]
    return src


changed = 0
for path in sorted(pathlib.Path("fleet/plugins").rglob("*.py")):
    old = path.read_text()
    new = migrate(old)
    if new != old:
        path.write_text(new)
        changed += 1
print(f"migrated {changed} files")
