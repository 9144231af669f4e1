#!/bin/bash
# Wrong (the previous oracle: one AST codemod over the names MIGRATION.md's table lists):
# resolves each call through the file's fleet.core imports, renames, adds "m" and reorders
# clamp. It misses every call that reaches the core without an import of it (the toolkit's
# short names, a partial, a dict of callables), arguments passed as *tuple or **dict, and the
# rule MIGRATION.md states by behaviour (wrap).
set -euo pipefail
cd /workspace
python3 /nab/solution/migrate.py
