"""Oracle: reads the count data the MCP server serves (fixtures) plus the ledger, writes the
report. Flags reproduce the known-wrong variants."""
import json
import subprocess
import sys

flags = set(sys.argv[1:])
data = json.load(open("/nab/mcp/data/inventory.json"))
awk = ["awk", "-F,", "-f", "tools/expected.awk", "ledger/opening.csv", "ledger/movements.csv"]
if "--no-cutoff" not in flags:
    awk[1:1] = ["-v", "until=2024-06-30"]
expected = {}
for line in subprocess.run(awk, capture_output=True, text=True, check=True).stdout.split():
    wh, sku, qty = line.split(",")
    expected[(wh, sku)] = int(qty)
counted = {}
for wh in ("BER-1", "HAM-2"):
    lines = data["counts"][wh][:20] if "--first-page-only" in flags else data["counts"][wh]
    for item in lines:
        size = data["skus"][item["sku"]]["case_size"] if item["uom"] == "case" and "--cases-as-units" not in flags else 1
        counted[(wh, item["sku"])] = counted.get((wh, item["sku"]), 0) + item["qty"] * size
rows = []
for key in sorted(set(expected) | set(counted)):
    e, c = expected.get(key, 0), counted.get(key, 0)
    if e != c:
        rows.append(f"{key[0]},{key[1]},{e},{c},{c - e}")
with open("reports/reconcile-2024-06-30.csv", "w") as f:
    f.write("warehouse,sku,expected,counted,difference\n" + "".join(r + "\n" for r in rows))
print(len(rows), "rows")
