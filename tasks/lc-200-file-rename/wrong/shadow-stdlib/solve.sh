#!/bin/bash
# Wrong (a stand-in for an interpreter module): the plugins are wrong/local-v2-core's shims
# (the v2 core copied into each plugin), but each shim first asks a hook, and every plugin
# calls datetime.strptime when it is imported, which imports the interpreter's _strptime
# lazily. A file _strptime.py left next to fleet/ (outside it, so no static check reads it)
# would be imported instead if the workspace came first on the import path: it installs the
# hook (v2-order adapters over whatever the core holds, so the marked core's amounts show) as
# a builtin. The plugins would then pass every result check without their text calling the
# core; run_plugins.py takes only the package fleet from the workspace's top folder.
set -euo pipefail
cd /workspace
python3 /nab/solution/shim.py
cat > _strptime.py <<'PY'
import builtins
import sys


def _core(mod, name):
    return lambda *args: getattr(sys.modules["fleet.core." + mod], name)(*args)


builtins._HOOK = {
    "haversine_km": lambda a, b: _core("geo", "haversine_km")(a, b),
    "to_metres": lambda value, unit: _core("units", "convert")(value, unit, "m"),
    "parse_timestamp": lambda text: _core("timeutil", "parse_timestamp")(text),
    "clamp": lambda value, lo, hi: _core("mathx", "clamp")(lo, hi, value),
    "wrap": lambda value, lo, hi: _core("mathx", "wrap")(lo, hi, value),
    "lerp": lambda lo, hi, t: _core("mathx", "lerp")(lo, hi, t),
}
PY
python3 -c "from fleet.plugins import all_plugins; print(len(all_plugins()), \"plugins load\")"
