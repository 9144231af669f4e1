#!/bin/bash
# Builds workspace/ledger.bundle deterministically (fixed dates and identities, so the
# commit hashes the hidden tests pin never change). Run from this task folder: bash generate.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"; git init -q -b main ledger; cd ledger
export GIT_AUTHOR_NAME="Dana Okafor" GIT_AUTHOR_EMAIL="dana@ledger.example" GIT_COMMITTER_NAME="Dana Okafor" GIT_COMMITTER_EMAIL="dana@ledger.example"
n=0
commit() { n=$((n+1)); export GIT_AUTHOR_DATE="2024-03-$(printf %02d $n)T10:00:00Z" GIT_COMMITTER_DATE="2024-03-$(printf %02d $n)T10:00:00Z"; git add -A; git commit -q -m "$1"; }
mkdir -p bin lib config data docs
cat > README.md <<'EOF'
# ledger-tools

Small shell tools for our shop's bookkeeping. `bin/ledger report FILE` prints the
net and tax totals per category for a ledger file (`data/*.ledger`).
EOF
cat > bin/ledger <<'EOF'
#!/bin/bash
# ledger: bookkeeping helper. Usage: ledger report FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
  report)
    file=${2:?usage: ledger report FILE}
    gawk -f "$root/lib/sum.awk" "$file"
    ;;
  *) echo "usage: ledger report FILE" >&2; exit 2 ;;
esac
EOF
chmod +x bin/ledger
cat > lib/sum.awk <<'EOF'
# Sums net amounts (in cents) per category. Input: date|category|cents
BEGIN { FS = "|" }
/^#/ || NF < 3 { next }
{ net[$2] += $3 }
END { for (c in net) printf "%s %d\n", c, net[c] }
EOF
cat > data/2024-q1.ledger <<'EOF'
# date|category|cents
2024-01-03|books|1999
2024-01-09|food|450
2024-01-17|electronics|12900
2024-02-02|books|2450
2024-02-11|food|1200
2024-02-20|services|5000
2024-03-05|electronics|3999
2024-03-14|children|2599
2024-03-28|food|830
EOF
echo "Old import notes: the 2023 ledger used comma separators." > docs/old-import.txt
commit "Initial ledger tools"
cat > config/tax_rates.csv <<'EOF'
category,rate_percent
books,7
food,7
electronics,19
EOF
commit "Add tax rate table"
cat > config/tax_rates.csv <<'EOF'
category,rate_percent
books,7
food,7
electronics,19
services,19
EOF
commit "Tax rates: add services"
cat > lib/report.awk <<'EOF'
# Per-category net and tax totals. First file: the tax table (category,rate_percent);
# second: the ledger (date|category|cents). Unknown categories are an error.
FNR == NR { if (FNR > 1) { split($0, f, ","); rate[f[1]] = f[2] } ; next }
/^#/ || NF < 3 { next }
{
  if (!($2 in rate)) { printf "unknown category %s at line %d\n", $2, FNR > "/dev/stderr"; bad = 1; exit 1 }
  net[$2] += $3
}
END {
  if (bad) exit 1
  n = asorti(net, cats)
  for (i = 1; i <= n; i++) {
    c = cats[i]; tax = int(net[c] * rate[c] / 100 + 0.5)
    printf "%-12s net %8.2f  tax %7.2f\n", c, net[c] / 100, tax / 100
    tn += net[c]; tt += tax
  }
  printf "%-12s net %8.2f  tax %7.2f\n", "TOTAL", tn / 100, tt / 100
}
EOF
cat > bin/ledger <<'EOF'
#!/bin/bash
# ledger: bookkeeping helper. Usage: ledger report FILE | ledger sum FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rates="$root/config/tax_rates.csv"
case "${1:-}" in
  report)
    file=${2:?usage: ledger report FILE}
    [ -f "$rates" ] || { echo "ledger: missing tax table $rates" >&2; exit 1; }
    gawk -F'|' -f "$root/lib/report.awk" "$rates" "$file"
    ;;
  sum)
    file=${2:?usage: ledger sum FILE}
    gawk -f "$root/lib/sum.awk" "$file"
    ;;
  *) echo "usage: ledger report FILE | ledger sum FILE" >&2; exit 2 ;;
esac
EOF
commit "Add per-category tax report"
cat > config/tax_rates.csv <<'EOF'
category,rate_percent
books,7
children,7
electronics,19
food,7
services,19
# reduced rate for books/food/children applies since 2024-01-01
EOF
commit "Tax rates: children's goods at the reduced rate, sort table"
sed -i 's|^FNR == NR { if (FNR > 1)|FNR == NR { if (FNR > 1 \&\& $0 !~ /^#/)|' lib/report.awk
commit "report: allow comment lines in the tax table"
git rm -q config/tax_rates.csv docs/old-import.txt
commit "Clean up stale files"
cat >> README.md <<'EOF'

## Commands

- `ledger report FILE` — net and tax per category, then a TOTAL line.
- `ledger sum FILE` — raw net sums in cents.
EOF
commit "README: document commands"
cat > lib/sum.awk <<'EOF'
# Sums net amounts (in cents) per category, sorted. Input: date|category|cents
BEGIN { FS = "|" }
/^#/ || NF < 3 { next }
{ net[$2] += $3 }
END { n = asorti(net, cats); for (i = 1; i <= n; i++) printf "%s %d\n", cats[i], net[cats[i]] }
EOF
commit "sum: sorted output"
cat > CHANGELOG.md <<'EOF'
# Changelog

## 1.2.0
- `ledger sum` output is sorted by category.
- Reduced tax rate for children's goods.
EOF
commit "Add changelog for 1.2.0"
git tag v1.2.0
rm -f "$here/workspace/ledger.bundle"
git bundle create -q "$here/workspace/ledger.bundle" --all
git log --format='%H %s' --reverse
