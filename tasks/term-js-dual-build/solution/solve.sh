#!/bin/bash
# Oracle. What was wrong with the release build of tinyfmt:
# - package.json "exports": the "." entry listed "default" (the ES module) before "require",
#   and Node takes the first condition that matches, so require('tinyfmt') got the ES module
#   (ERR_REQUIRE_ESM); and "./*" also exposed src/internal/ as tinyfmt/internal/* (now null,
#   i.e. not exported: the more specific pattern wins whatever its place);
# - dist/cjs/*.js lay in a "type": "module" package, so Node read them as ES modules: the
#   build now writes dist/cjs/package.json {"type": "commonjs"};
# - the CommonJS rewrite swapped the two names of `export { a as b } from` (it exported
#   the module's `b` under the name `a`).
set -euo pipefail
cd /workspace

python3 - <<'PY'
import json

def edit(path, old, new, count=1):
    s = open(path).read()
    assert s.count(old) == count, (path, old)
    open(path, "w").write(s.replace(old, new))

# exports: require before default; internal modules private.
pkg = json.load(open("package.json"))
pkg["exports"] = {
    ".": {"import": "./dist/esm/index.js", "require": "./dist/cjs/index.js", "default": "./dist/esm/index.js"},
    "./internal/*": None,
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
