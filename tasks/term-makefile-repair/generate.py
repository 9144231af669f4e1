#!/usr/bin/env python3
"""Writes workspace/ (the calc project) except its Makefile, Makefile.old and build.sh."""
import os, shutil
W = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workspace")
MODS = ["err", "buf", "str", "vec", "hash", "map", "num", "lex", "ops", "eval", "fmt", "env", "list", "sort", "util", "cli", "rng", "span"]
HDEPS = {"span": ["vec", "rng"], "map": ["hash"], "fmt": ["buf"], "eval": ["ops", "lex"], "lex": ["str"], "cli": ["fmt", "env"]}
CDEPS = {"ops": True, "eval": True}  # sources including the generated header directly
TESTED = ["buf", "str", "vec", "hash", "map", "num", "sort", "eval"]
def w(p, s):
    p = os.path.join(W, p); os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").write(s)
for d in ("lib", "include", "src", "tools", "tests", "man"):
    shutil.rmtree(os.path.join(W, d), ignore_errors=True)
for i, m in enumerate(MODS):
    inc = "".join(f'#include "calc/{d}.h"\n' for d in HDEPS.get(m, []))
    if m != "ops":  # calc/ops.h is generated
      w(f"include/calc/{m}.h", f"#ifndef CALC_{m.upper()}_H\n#define CALC_{m.upper()}_H\n{inc}int calc_{m}(int x);\n#endif\n")
    body = f"x + {i + 1}"
    extra = ""
    if m == "ops":
        extra = '#include "calc/ops.h"\nint calc_op_count(void) { return CALC_OP_COUNT; }\n'
        body = "x + CALC_OP_COUNT"
    if m == "eval":
        body = "calc_ops(x) - CALC_OP_COUNT + " + str(i + 1)
        extra = '#include "calc/ops.h"\n'
    w(f"lib/{m}.c", f'#include "calc/{m}.h"\n' + (extra if m != "ops" else extra.split("\n", 1)[1]) + f'int calc_{m}(int x) {{ return {body}; }}\n')
w("lib/ops.def", "# name symbol arity\nadd + 2\nsub - 2\nmul * 2\ndiv / 2\nneg ~ 1\n")
w("tools/mkops.awk", '''# Writes calc/ops.h from lib/ops.def.
BEGIN { print "#ifndef CALC_OPS_H"; print "#define CALC_OPS_H"; print "int calc_ops(int x);"; print "int calc_op_count(void);"; print "enum calc_op {" }
/^#/ || NF == 0 { next }
{ printf "    CALC_OP_%s,\\n", toupper($1); names = names sprintf("\\"%s\\", ", $1); n++ }
END { print "};"; printf "#define CALC_OP_COUNT %d\\n", n; printf "#define CALC_OP_NAMES { %s}\\n", names; print "#endif" }
''')
w("src/calc.c", '#include <stdio.h>\n#include <stdlib.h>\n#include "calc/eval.h"\n#include "calc/cli.h"\n'
  'int main(int argc, char **argv) {\n    int x = argc > 1 ? atoi(argv[1]) : 0;\n'
  '    printf("%d\\n", calc_eval(x) + calc_cli(0) - calc_cli(0));\n    return 0;\n}\n')
w("src/calc-ops.c", '#include <stdio.h>\n#include "calc/ops.h"\n'
  'int main(void) {\n    const char *names[] = CALC_OP_NAMES;\n    for (int i = 0; i < CALC_OP_COUNT; i++) puts(names[i]);\n    return 0;\n}\n')
w("src/calc-info.c", '#include <stdio.h>\n#include "calc/util.h"\n#include "calc/map.h"\n'
  'int main(void) { printf("calc %d.%d\\n", calc_util(0) - 14, calc_map(0) - 6); return 0; }\n')
for m in TESTED:
    i = MODS.index(m)
    exp = 1 + (i + 1)
    w(f"tests/t_{m}.c", f'#include <stdio.h>\n#include "calc/{m}.h"\n'
      f'int main(void) {{\n    int got = calc_{m}(1);\n    if (got != {exp}) {{ printf("FAIL t_{m}: %d\\n", got); return 1; }}\n'
      f'    puts("PASS t_{m}");\n    return 0;\n}}\n')
w("man/calc.1", ".TH CALC 1\n.SH NAME\ncalc \\- evaluate with the calc library\n.SH SYNOPSIS\n.B calc\n[\\fIN\\fR]\n")
w("README.md", """# calc

A small C library (`lib/`, headers in `include/calc/`) and the programs built on it
(`src/`). `calc/ops.h` is generated from `lib/ops.def` by `tools/mkops.awk`.
Unit tests are in `tests/` (one program per `tests/t_*.c`; each prints `PASS <name>` and
exits 0, or exits non-zero).
""")
