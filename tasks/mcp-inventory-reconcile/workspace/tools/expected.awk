# expected.awk: expected stock per warehouse and SKU from the ledger.
#
#   awk -F, [-v until=YYYY-MM-DD] -f tools/expected.awk ledger/opening.csv ledger/movements.csv
#
# Prints "warehouse,sku,qty" lines (unsorted). Movements dated after `until` (inclusive
# bound) are ignored; without `until`, every movement counts.
FNR == 1 { file++ }
/^#/ || /^warehouse,/ || /^date,/ { next }
file == 1 { stock[$1 "," $2] += $3; next }
file == 2 {
  if (until != "" && $1 > until) next
  stock[$2 "," $3] += $4
}
END { for (k in stock) print k "," stock[k] }
