#!/bin/bash
# Wrong: the Python rewrite, run through a copy of the interpreter that is opened and then
# deleted, and executed as /proc/self/fd/3: its path no longer resolves, so a guard that
# lets through what it cannot resolve ("the real call reports it") lets it run. The tools
# must stay bash: the verifier refuses a program whose path does not resolve.
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
for tool in csv-cut csv-grep csv-count; do
  cat > "bin/$tool" <<SH
#!/bin/bash
HERE=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")/.." && pwd)
py=\$(mktemp /tmp/.csvtool.XXXXXX)
cp /usr/bin/python3 "\$py"
chmod 0700 "\$py"
exec 3<"\$py"
rm -f "\$py"
exec /proc/self/fd/3 "\$HERE/lib/csvtool.py" $tool "\$@"
SH
done
