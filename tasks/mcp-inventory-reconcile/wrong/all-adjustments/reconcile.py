"""Oracle: reads the counts through the inventory MCP server (the warehouses counted on the
count date, every page of their counts, the master data of every SKU counted in cases) plus
the ledger, writes the report, then books each row in the stock ledger service: nothing for
a row already booked for this count date (every page of list_postings; there is none, and
May's postings do not count), an adjustment within 5% of the book quantity, a recount
otherwise; each write sent again until confirmed, with the same key.

It talks MCP itself over the sockets in /nab/mcp-sockets (one connection per server: a
trial may open only 32). Flags reproduce the known-wrong variants; each still makes every
call the task requires, so it fails on the tests, not on a missing call."""
import json
import socket
import subprocess
import sys
import time

COUNT_DATE = "2024-06-30"
flags = set(sys.argv[1:])


class Server:
    def __init__(self, name):
        with open("/nab/mcp-sockets/servers.json", encoding="utf-8") as f:
            path = json.load(f)["mcpServers"][name]["socket"]
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        self.stream = sock.makefile("rwb")
        self.next_id = 1
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "oracle", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.stream.write((json.dumps(msg) + "\n").encode())
        self.stream.flush()

    def rpc(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            reply = json.loads(self.stream.readline())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise SystemExit(f"{method}: {reply['error']}")
                return reply["result"]

    def call(self, tool, **arguments):
        """(ok, parsed text) of one tool call."""
        result = self.rpc("tools/call", {"name": tool, "arguments": arguments})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        return not result.get("isError"), json.loads(text)


inventory, ledger = Server("inventory"), Server("stockledger")


def inv(tool, **arguments):
    ok, value = inventory.call(tool, **arguments)
    if not ok:
        raise SystemExit(f"{tool}: {value}")
    return value


# --- 1. the report -----------------------------------------------------------------------
awk = ["awk", "-F,", "-f", "tools/expected.awk", "ledger/opening.csv", "ledger/movements.csv"]
if "--no-cutoff" not in flags:
    awk[1:1] = ["-v", f"until={COUNT_DATE}"]
expected = {}
for line in subprocess.run(awk, capture_output=True, text=True, check=True).stdout.split():
    wh, sku, qty = line.split(",")
    expected[(wh, sku)] = int(qty)

warehouses = [w["code"] for w in inv("list_warehouses")
              if w["status"] == "active" and w["last_count"] == COUNT_DATE]
counts, master = {}, {}


def sku_info(sku):
    if sku not in master:
        master[sku] = inv("get_sku", sku=sku)
    return master[sku]


for wh in warehouses:
    pages, cursor = [], None
    while True:
        page = inv("get_counts", warehouse=wh, **({"cursor": cursor} if cursor else {}))
        pages.append(page["lines"])
        cursor = page["next_cursor"]
        if not cursor:
            break
    counts[wh] = pages[0] if "--first-page-only" in flags else [l for p in pages for l in p]
    for item in (l for p in pages for l in p):
        if item["uom"] == "case":
            sku_info(item["sku"])
counted = {}
for wh, lines in counts.items():
    for item in lines:
        size = sku_info(item["sku"])["case_size"] if item["uom"] == "case" and "--cases-as-units" not in flags else 1
        counted[(wh, item["sku"])] = counted.get((wh, item["sku"]), 0) + item["qty"] * size
rows = []
for key in sorted(set(expected) | set(counted)):
    e, c = expected.get(key, 0), counted.get(key, 0)
    if e != c:
        rows.append((key[0], key[1], e, c, c - e))
with open("reports/reconcile-2024-06-30.csv", "w") as f:
    f.write("warehouse,sku,expected,counted,difference\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
print(len(rows), "rows")

# --- 2. the bookings ---------------------------------------------------------------------
if "--report-only" in flags:
    sys.exit(0)
booked = set()
for wh in warehouses:
    cursor = None
    while True:
        ok, page = ledger.call("list_postings", warehouse=wh, **({"cursor": cursor} if cursor else {}))
        assert ok, page
        for p in page["postings"]:
            if p["count_date"] == COUNT_DATE or "--any-posting-is-booked" in flags:
                booked.add((p["warehouse"], p["sku"]))
        cursor = page["next_cursor"]
        if not cursor:
            break


def write(tool, **arguments):
    attempt = 0
    while True:
        ok, answer = ledger.call(tool, **arguments)
        if ok:
            print(answer["status"], tool, arguments["warehouse"], arguments["sku"])
            return
        if answer["error"] == "rate_limited":
            if "--give-up-on-limits" in flags:
                print("gave up:", tool, arguments["sku"])
                return
            time.sleep(answer["retry_after_s"] + 0.2)
        elif answer["error"] == "upstream_timeout":
            if "--no-retry-on-timeout" in flags:
                print("timed out, not sent again:", tool, arguments["sku"])
                return
            attempt += 1
            if "--new-key-on-retry" in flags:
                arguments["idempotency_key"] = f"{arguments['idempotency_key']}-retry{attempt}"
        else:
            raise SystemExit(f"{tool}: {answer}")


for wh, sku, e, c, d in rows:
    if (wh, sku) in booked:
        continue
    common = {"warehouse": wh, "sku": sku, "count_date": COUNT_DATE, "idempotency_key": f"rc-{COUNT_DATE}-{wh}-{sku}"}
    if "--all-adjustments" in flags or (e > 0 and abs(d) * 100 <= 5 * e):
        write("post_adjustment", qty=d, **common)
    else:
        write("request_recount", expected=e, counted=c, **common)
