#!/bin/bash
# Wrong: both package fixes (require before default, internal modules null) and a CommonJS
# dist/cjs/, but the rewrite of `export { a as b } from` left as it was: the smoke check is
# green, require('tinyfmt') has parseDuration and default (undefined) instead of parse and plural.
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
edit("scripts/build.mjs", "console.log(`built",
     "if (config.formats.includes('cjs')) emit(path.join(outDir, 'cjs', 'package.json'), '{\"type\": \"commonjs\"}\\n');\n"
     "console.log(`built")
PY
node scripts/build.mjs
node test/run.mjs
node scripts/smoke.mjs
