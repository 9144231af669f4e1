#!/bin/bash
# Wrong: just enough for scripts/smoke.mjs: the walk into sub-folders, default imports in the
# CommonJS rewrite, require before default in "exports" and a CommonJS dist/cjs/.
set -euo pipefail
cd /workspace
python3 - <<'PY2'
import json
def edit(path, old, new):
    s = open(path).read()
    assert s.count(old) == 1, (path, old)
    open(path, "w").write(s.replace(old, new))
pkg = json.load(open("package.json"))
pkg["exports"]["."] = {"import": "./dist/esm/index.js", "require": "./dist/cjs/index.js", "default": "./dist/esm/index.js"}
open("package.json", "w").write(json.dumps(pkg, indent=2) + "\n")
edit("scripts/lib/cjs.mjs", "out.push(`const ${m[1]} = ${req(m[3])};`);", "out.push(`const ${m[1]} = ${req(m[3])}.default;`);")
edit("scripts/build.mjs", "console.log(`built",
     "emit(path.join(outDir, 'cjs', 'package.json'), '{\"type\": \"commonjs\"}\\n');\nconsole.log(`built")
edit("scripts/lib/walk.mjs", ".filter((entry) => entry.isFile() && entry.name.endsWith('.js'))\n    .map((entry) => entry.name)",
     ".flatMap((entry) => entry.isDirectory() ? listModules(`${dir}/${entry.name}`).map((f) => `${entry.name}/${f}`) : [entry.name])\n    .filter((name) => name.endsWith('.js'))")
PY2
node scripts/build.mjs
node scripts/smoke.mjs
