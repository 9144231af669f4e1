#!/bin/bash
# Oracle: the v3 plugins generate.py wrote (solution/migrated/, from the same model as the v2
# plugins; generate.py checks that they compute what the v2 plugins computed). Every call is
# direct, from run(), in the v3 argument order; two plugins are written in other right forms
# (`import fleet.core.<module>` and dotted calls, keyword arguments, __all__, a comment naming
# the v2 call, a __main__ block), so that every validation shows the checks accepting them.
# fleet/plugins/toolkit.py stays as shipped. (solution/codemod.py, which the scripted
# trajectory writes, is the other route: it follows each call's imports and data flow.)
set -euo pipefail
cd /workspace
cp -r /nab/solution/migrated/. fleet/plugins/
python3 -c "from fleet.plugins import all_plugins; print(len(all_plugins()), \"plugins load\")"
