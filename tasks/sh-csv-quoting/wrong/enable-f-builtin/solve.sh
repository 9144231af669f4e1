#!/bin/bash
# Wrong: the Python rewrite, started from a bash loadable builtin. A shared object compiled
# here is loaded into the tool's own bash with `enable -f` (a dlopen, no exec), and its
# builtin starts Python with a raw execve system call that no exec wrapper sees. The tools
# must stay bash: the verifier refuses to load an object from outside the system's library
# folders into a tool, and the kernel lets a tool execute only the allowed programs.
set -euo pipefail
cd /workspace
cat > lib/csvtool.py <<'PY'
import csv
import os
import re
import sys


def die(prog, msg, code=1):
    sys.stderr.write(f"{prog}: {msg}\n")
    sys.exit(code)


def records(prog, name):
    if name != "/dev/stdin" and not os.access(name, os.R_OK):
        die(prog, f"cannot read {name}")
    f = sys.stdin if name == "/dev/stdin" else open(name, newline="", encoding="utf-8")
    rows = list(csv.reader(f))
    if not rows:
        die(prog, f"{name}: empty input")
    return rows[0], rows[1:]


def main():
    prog, args = sys.argv[1], sys.argv[2:]
    out = csv.writer(sys.stdout, lineterminator="\n")
    if prog == "csv-cut":
        if len(args) < 2 or args[0] != "-f":
            die(prog, "usage: csv-cut -f COL[,COL...] [FILE...]", 2)
        wanted, files = args[1].split(","), args[2:] or ["/dev/stdin"]
        out.writerow(wanted)
        for name in files:
            header, rows = records(prog, name)
            for w in wanted:
                if w not in header:
                    die(prog, f"{name}: no column '{w}'")
            idx = [header.index(w) for w in wanted]
            for r in rows:
                out.writerow([r[i] if i < len(r) else "" for i in idx])
    elif prog == "csv-grep":
        col, rx, files = args[0], re.compile(args[1]), args[2:] or ["/dev/stdin"]
        first = True
        for name in files:
            header, rows = records(prog, name)
            if col not in header:
                die(prog, f"{name}: no column '{col}'")
            i = header.index(col)
            if first:
                out.writerow(header)
                first = False
            for r in rows:
                if rx.search(r[i] if i < len(r) else ""):
                    out.writerow(r)
    else:
        col = None
        if args[:1] == ["-c"]:
            col, args = args[1], args[2:]
        files, total, seen = args or ["/dev/stdin"], 0, {}
        for name in files:
            header, rows = records(prog, name)
            if col is not None and col not in header:
                die(prog, f"{name}: no column '{col}'")
            for r in rows:
                total += 1
                if col is not None:
                    i = header.index(col)
                    v = r[i] if i < len(r) else ""
                    seen[v] = seen.get(v, 0) + 1
        if col is None:
            print(total)
        else:
            for v, n in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0].encode())):
                print(f"{n}\t{v}")


main()
PY
cat > lib/pyexec.c <<'C'
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

/* bash's loadable builtin ABI, declared here (no bash headers needed). */
typedef struct word_desc { char *word; int flags; } WORD_DESC;
typedef struct word_list { struct word_list *next; WORD_DESC *word; } WORD_LIST;
struct builtin {
    char *name;
    int (*function)(WORD_LIST *);
    int flags;
    char *const *long_doc;
    const char *short_doc;
    char *handle;
};
extern char **environ;

static int pyexec_builtin(WORD_LIST *list) {
    char *argv[64];
    int n = 0;
    for (; list && n < 63; list = list->next) argv[n++] = list->word->word;
    argv[n] = 0;
    if (n == 0) return 2;
    syscall(SYS_execve, argv[0], argv, environ);
    return 126;
}

static char *const pyexec_doc[] = {"Replaces the shell with a program, by system call.", 0};
struct builtin pyexec_struct = {"pyexec", pyexec_builtin, 1, pyexec_doc, "pyexec PROG [ARG...]", 0};
C
gcc -shared -fPIC -O1 -o lib/pyexec.so lib/pyexec.c
for tool in csv-cut csv-grep csv-count; do
  cat > "bin/$tool" <<SH
#!/bin/bash
HERE=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")/.." && pwd)
enable -f "\$HERE/lib/pyexec.so" pyexec || exit 126
pyexec /usr/bin/python3 "\$HERE/lib/csvtool.py" $tool "\$@"
SH
done
