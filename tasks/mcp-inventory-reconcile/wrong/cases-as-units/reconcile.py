"""Oracle: reads the counts through the inventory MCP server (the socket client nab puts
beside the servers' sockets: the warehouses counted on the count date, every page of their
counts, the case size of every SKU counted in cases) plus the ledger, and writes the report.
Flags reproduce the known-wrong variants; each still makes every call the task requires, so
it fails on the tests, not on a missing call."""
import json
import subprocess
import sys

COUNT_DATE = "2024-06-30"
MCP_CALL = "/nab/mcp-sockets/mcp_call.py"
flags = set(sys.argv[1:])


def call(tool, **arguments):
    out = subprocess.run(["python3", MCP_CALL, "inventory", tool, json.dumps(arguments)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


awk = ["awk", "-F,", "-f", "tools/expected.awk", "ledger/opening.csv", "ledger/movements.csv"]
if "--no-cutoff" not in flags:
    awk[1:1] = ["-v", f"until={COUNT_DATE}"]
expected = {}
for line in subprocess.run(awk, capture_output=True, text=True, check=True).stdout.split():
    wh, sku, qty = line.split(",")
    expected[(wh, sku)] = int(qty)

warehouses = [w["code"] for w in call("list_warehouses")
              if w["status"] == "active" and w["last_count"] == COUNT_DATE]
counts, case_size = {}, {}
for wh in warehouses:
    pages, cursor = [], None
    while True:
        page = call("get_counts", warehouse=wh, **({"cursor": cursor} if cursor else {}))
        pages.append(page["lines"])
        cursor = page["next_cursor"]
        if not cursor:
            break
    counts[wh] = pages[0] if "--first-page-only" in flags else [l for p in pages for l in p]
    for item in (l for p in pages for l in p):
        if item["uom"] == "case" and item["sku"] not in case_size:
            case_size[item["sku"]] = call("get_sku", sku=item["sku"])["case_size"]
counted = {}
for wh, lines in counts.items():
    for item in lines:
        size = case_size[item["sku"]] if item["uom"] == "case" and "--cases-as-units" not in flags else 1
        counted[(wh, item["sku"])] = counted.get((wh, item["sku"]), 0) + item["qty"] * size
rows = []
for key in sorted(set(expected) | set(counted)):
    e, c = expected.get(key, 0), counted.get(key, 0)
    if e != c:
        rows.append(f"{key[0]},{key[1]},{e},{c},{c - e}")
with open("reports/reconcile-2024-06-30.csv", "w") as f:
    f.write("warehouse,sku,expected,counted,difference\n" + "".join(r + "\n" for r in rows))
print(len(rows), "rows")
