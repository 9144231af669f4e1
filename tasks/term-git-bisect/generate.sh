#!/bin/bash
# Builds workspace/textkit.bundle deterministically (fixed dates/identities => fixed hashes;
# the hidden test pins the first bad commit). Run from this task folder: bash generate.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"; git init -q -b main textkit; cd textkit
authors=("Ines Duarte:ines@textkit.example" "Tom Berg:tom@textkit.example" "Ravi Nair:ravi@textkit.example")
n=0
commit() {
  n=$((n+1)); local a=${authors[$((n % 3))]}
  export GIT_AUTHOR_NAME=${a%%:*} GIT_AUTHOR_EMAIL=${a#*:} GIT_COMMITTER_NAME=${a%%:*} GIT_COMMITTER_EMAIL=${a#*:}
  export GIT_AUTHOR_DATE="2024-06-01T08:00:00Z +$((n*7))h" GIT_COMMITTER_DATE="$(date -u -d "2024-06-01 08:00:00 UTC + $((n*7)) hours" +%Y-%m-%dT%H:%M:%SZ)"
  export GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE
  git add -A; git commit -q -m "$1"
}
mkdir -p bin lib data docs tests
cat > README.md <<'EOF'
# textkit

Small text and CSV utilities.

- `bin/colsum FILE COLUMN` — sum of a named numeric column of a CSV file (with a header row).
- `bin/wordcount FILE` — the ten most frequent words.
EOF
cat > bin/colsum <<'EOF'
#!/bin/bash
# colsum FILE COLUMN: sum of a named numeric column of a CSV file with a header row.
set -euo pipefail
file=${1:?usage: colsum FILE COLUMN}
col=${2:?usage: colsum FILE COLUMN}
awk -F, -v col="$col" '
NR == 1 {
  for (i = 1; i <= NF; i++) if ($i == col) c = i
  if (!c) { print "colsum: no column " col > "/dev/stderr"; exit 2 }
  next
}
{ s += $c }
END { if (c) printf "%.2f\n", s }' "$file"
EOF
cat > bin/wordcount <<'EOF'
#!/bin/bash
# wordcount FILE: the ten most frequent words, lower-cased.
set -euo pipefail
tr -cs 'A-Za-z' '\n' < "${1:?usage: wordcount FILE}" | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c | sort -k1,1nr -k2 | head -10
EOF
chmod +x bin/colsum bin/wordcount
cat > data/sales.csv <<'EOF'
date,region,item,amount
2024-04-01,north,lamp,120.50
2024-04-01,south,desk,480.00
2024-04-02,north,chair,95.25
2024-04-03,east,lamp,120.50
2024-04-04,south,refund desk,-150.00
2024-04-05,west,shelf,210.00
2024-04-06,east,chair,95.25
2024-04-07,north,desk,480.00
2024-04-08,west,lamp,120.50
2024-04-09,south,refund lamp,-120.50
2024-04-10,east,shelf,210.00
EOF
cat > tests/run.sh <<'EOF'
#!/bin/bash
# Smoke tests: run from the repository root.
set -euo pipefail
out=$(bin/colsum data/sales.csv amount)
[ -n "$out" ] || { echo "colsum printed nothing"; exit 1; }
bin/wordcount README.md > /dev/null
echo "ok"
EOF
echo "# Changes" > CHANGES.md
commit "textkit 1.0"
git tag v1.0

filler() { # $1: index — a small, real-looking change that does not touch colsum
  case $(( $1 % 5 )) in
    0) echo "- docs: note $1 about CSV quoting" >> CHANGES.md; msg="Changes: note about CSV quoting ($1)";;
    1) printf 'word%s appears here %s times\n' "$1" "$1" >> data/words-$(( $1 % 3 )).txt; msg="data: more sample text ($1)";;
    2) echo "Example $1: \`bin/wordcount data/words-$(( $1 % 3 )).txt\`" >> docs/examples.md; msg="docs: example $1";;
    3) sed -i "s/^# wordcount FILE: .*/# wordcount FILE: the ten most frequent words, lower-cased (rev $1)./" bin/wordcount; msg="wordcount: clarify header comment (rev $1)";;
    4) echo "echo \"check $1\" >/dev/null" >> tests/run.sh; msg="tests: extend smoke test ($1)";;
  esac
  commit "$msg"
}
for i in $(seq 1 16); do filler $i; done
# A broken commit (typo in a path), fixed by the very next one. It says nothing about the bug.
mkdir -p lib
cat > lib/common.sh <<'EOF'
# Shared helpers for textkit scripts.
die() { echo "$(basename "$0"): $*" >&2; exit 2; }
EOF
sed -i 's|^set -euo pipefail$|set -euo pipefail\n. "$(dirname "$0")/../lib/comon.sh"|' bin/colsum
commit "colsum: share error helper via lib/common.sh"
for i in $(seq 17 21); do filler $i; done
sed -i 's|lib/comon.sh|lib/common.sh|' bin/colsum
commit "colsum: fix path of lib/common.sh"
for i in $(seq 22 27); do filler $i; done
# The regression: negative amounts (refunds) no longer count.
python3 - <<'EOF'
p = "bin/colsum"; t = open(p).read()
t = t.replace("{ s += $c }", "/^#/ { next }\n$c ~ /^[0-9]+(\\.[0-9]+)?$/ { s += $c }")
open(p, "w").write(t)
EOF
commit "colsum: allow comment lines in the input"
for i in $(seq 28 32); do filler $i; done
sed -i 's|END { if (c) printf "%.2f\\n", s }|END { if (c) printf "%.2f\\n", s + 0 }|' bin/colsum
commit "colsum: fix total for files without a trailing newline"
for i in $(seq 33 38); do filler $i; done
rm -f "$here/workspace/textkit.bundle"
git bundle create -q "$here/workspace/textkit.bundle" --all
git log --format='%H %s' --reverse | nl
