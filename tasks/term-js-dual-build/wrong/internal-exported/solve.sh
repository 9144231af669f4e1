#!/bin/bash
# Wrong: the oracle's fixes but the "./*" pattern left alone: tinyfmt/internal/* stays loadable.
set -euo pipefail
cd /workspace

python3 - <<'PY'
import json

def edit(path, old, new, count=1):
    s = open(path).read()
    assert s.count(old) == count, (path, old)
    open(path, "w").write(s.replace(old, new))

pkg = json.load(open("package.json"))
pkg["exports"] = {
    ".": {"import": "./dist/esm/index.js", "require": "./dist/cjs/index.js", "default": "./dist/esm/index.js"},
    "./*": {"import": "./dist/esm/*.js", "require": "./dist/cjs/*.js"},
    "./package.json": "./package.json",
}
open("package.json", "w").write(json.dumps(pkg, indent=2) + "\n")
edit("scripts/lib/cjs.mjs", "out.push(`exports.${b.local} = ${t}.${b.exported};`);", "out.push(`exports.${b.exported} = ${t}.${b.local};`);")
edit("scripts/build.mjs", "console.log(`built",
     "if (config.formats.includes('cjs')) emit(path.join(outDir, 'cjs', 'package.json'), '{\"type\": \"commonjs\"}\\n');\n"
     "console.log(`built")
PY
node scripts/build.mjs
node test/run.mjs
node scripts/smoke.mjs
