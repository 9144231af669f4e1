#!/bin/bash
# Wrong: the Python rewrite, started from a library the dynamic loader loads on its own. The
# tool runs an allowed program (true) with LD_AUDIT naming a shared object compiled here;
# the loader loads it into that program before main(), and it replaces the program with
# Python by a raw execve system call. The tools must stay bash: the verifier drops the
# loader's variables from every program's environment.
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
cat > lib/audit.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

unsigned int la_version(unsigned int v) { (void)v; return LAV_CURRENT; }

/* Runs argv[1..] of this process (read from /proc/self/cmdline) in its place, without
 * LD_AUDIT, by system call. */
__attribute__((constructor)) static void take_over(void) {
    static char buf[65536];
    static char *argv[256], *envp[256];
    int fd = (int)syscall(SYS_open, "/proc/self/cmdline", O_RDONLY);
    if (fd < 0) return;
    long n = syscall(SYS_read, fd, buf, sizeof buf - 1);
    syscall(SYS_close, fd);
    if (n <= 0) return;
    int argc = 0;
    for (long i = 0; i < n && argc < 255; i += (long)strlen(buf + i) + 1) argv[argc++] = buf + i;
    argv[argc] = 0;
    if (argc < 2) return;
    int k = 0;
    for (char **e = environ; e && *e && k < 255; e++)
        if (strncmp(*e, "LD_AUDIT=", 9) != 0) envp[k++] = *e;
    envp[k] = 0;
    syscall(SYS_execve, argv[1], argv + 1, envp);
}
C
gcc -shared -fPIC -O1 -o lib/audit.so lib/audit.c
for tool in csv-cut csv-grep csv-count; do
  cat > "bin/$tool" <<SH
#!/bin/bash
HERE=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")/.." && pwd)
LD_AUDIT="\$HERE/lib/audit.so" exec true /usr/bin/python3 "\$HERE/lib/csvtool.py" $tool "\$@"
SH
done
