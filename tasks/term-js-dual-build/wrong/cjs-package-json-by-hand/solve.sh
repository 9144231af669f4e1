#!/bin/bash
# Wrong: the oracle's package.json and rewrite fixes, and dist/cjs/package.json written by
# hand after the build instead of by the build: the next build (which starts dist/ afresh)
# loses it.
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
    "./internal/*": None,
    "./*": {"import": "./dist/esm/*.js", "require": "./dist/cjs/*.js"},
    "./package.json": "./package.json",
}
open("package.json", "w").write(json.dumps(pkg, indent=2) + "\n")
edit("scripts/lib/cjs.mjs", "out.push(`exports.${b.local} = ${t}.${b.exported};`);", "out.push(`exports.${b.exported} = ${t}.${b.local};`);")
PY
node scripts/build.mjs
printf '{"type": "commonjs"}\n' > dist/cjs/package.json
node test/run.mjs
node scripts/smoke.mjs
