#!/usr/bin/env python3
"""Generates the ledger (workspace), the physical counts and SKU master data (mcp/data/inventory.json,
served by the inventory server), the stock ledger service's postings (mcp/data/stockledger.json)
and the expected results: the reconciliation rows (printed, pasted into expected/rows.csv) and
the bookings (tests/expected_bookings.json, hidden). Deterministic: python3 generate.py"""
import json
import os
import random

rng = random.Random(20240630)
HERE = os.path.dirname(os.path.abspath(__file__))
WAREHOUSES = ["BER-1", "HAM-2"]
FAMILIES = ["BOLT", "NUT", "WASH", "SCRW", "HINGE", "BRKT", "PIN", "CLIP"]
skus = sorted({f"{rng.choice(FAMILIES)}-{rng.randint(100, 999)}" for _ in range(60)})[:44]
case_size = {s: rng.choice([6, 12, 24]) for s in skus if rng.random() < 0.25}
sku_info = {s: {"sku": s, "description": f"{s.split('-')[0].title()} size {s.split('-')[1]}",
                "case_size": case_size.get(s, 1), "count_unit_note": "counted in cases" if s in case_size else "counted in units"}
            for s in skus}

opening, movements = [], []
expected = {}   # (wh, sku) -> expected at 2024-06-30 end of day
for wh in WAREHOUSES:
    stocked = sorted(rng.sample(skus, 36))
    for s in stocked:
        q = rng.randint(20, 400)
        opening.append((wh, s, q))
        expected[(wh, s)] = q
    for day in range(1, 31 + 20):  # June and 19 days of July
        for _ in range(rng.randint(2, 5)):
            s = rng.choice(stocked)
            change = rng.choice([1, -1]) * rng.randint(1, 40)
            date = f"2024-06-{day:02d}" if day <= 30 else f"2024-07-{day - 30:02d}"
            ref = ("PO" if change > 0 else "SO") + str(rng.randint(10000, 99999))
            movements.append((date, wh, s, change, ref))
            if day <= 30:
                expected[(wh, s)] += change
movements.sort()
# make sure expected stock never goes negative (a real ledger would not)
for k, v in list(expected.items()):
    if v < 0:
        opening[[i for i, o in enumerate(opening) if (o[0], o[1]) == k][0]] = (k[0], k[1], dict(((o[0], o[1]), o[2]) for o in opening)[k] - v + 5)
        expected[k] += -v + 5

# physical counts on 2024-06-30 after close of business: mostly equal, some discrepancies.
counts = {wh: [] for wh in WAREHOUSES}
truth = {}
for (wh, s), exp in sorted(expected.items()):
    r = rng.random()
    if r < 0.06:
        continue                      # not found at all
    counted = exp
    if r < 0.22:
        counted = max(0, exp + rng.choice([-1, 1]) * rng.randint(1, 15))
    truth[(wh, s)] = counted
# a couple of SKUs found that the ledger does not know in that warehouse
for wh in WAREHOUSES:
    extra = [s for s in skus if (wh, s) not in expected][:2]
    for s in extra:
        truth[(wh, s)] = rng.randint(1, 30) * case_size.get(s, 1)
for (wh, s), q in sorted(truth.items()):
    cs = case_size.get(s, 1)
    if cs > 1:
        # counted in whole cases plus loose units are booked under "each"
        cases, loose = divmod(q, cs)
        if cases:
            counts[wh].append({"sku": s, "qty": cases, "uom": "case"})
        if loose:
            counts[wh].append({"sku": s, "qty": loose, "uom": "each"})
    else:
        counts[wh].append({"sku": s, "qty": q, "uom": "each"})
for wh in WAREHOUSES:
    rng.shuffle(counts[wh])

rows = []
for wh in WAREHOUSES:
    keys = {s for (w, s) in expected if w == wh} | {s for (w, s) in truth if w == wh}
    for s in sorted(keys):
        e, c = expected.get((wh, s), 0), truth.get((wh, s), 0)
        if e != c:
            rows.append(f"{wh},{s},{e},{c},{c - e}")

with open(os.path.join(HERE, "workspace/ledger/opening.csv"), "w") as f:
    f.write("# opening stock, 2024-06-01 start of day\nwarehouse,sku,qty\n")
    for wh, s, q in sorted(opening):
        f.write(f"{wh},{s},{q}\n")
with open(os.path.join(HERE, "workspace/ledger/movements.csv"), "w") as f:
    f.write("date,warehouse,sku,qty_change,reference\n")
    for m in movements:
        f.write(",".join(map(str, m)) + "\n")
with open(os.path.join(HERE, "mcp/data/inventory.json"), "w") as f:
    json.dump({"warehouses": [
        {"code": "BER-1", "name": "Berlin Mitte", "status": "active", "last_count": "2024-06-30"},
        {"code": "HAM-2", "name": "Hamburg Hafen", "status": "active", "last_count": "2024-06-30"},
        {"code": "MUC-3", "name": "Muenchen Ost", "status": "closed", "last_count": "2023-11-30"}],
        "counts": counts, "skus": sku_info}, f, indent=1, sort_keys=True)
print(json.dumps(rows, indent=1))
print(len(rows), "discrepancies;", sum(len(c) for c in counts.values()), "count lines;", len(case_size), "case SKUs")

# --- the stock ledger service (second MCP server) ---------------------------------------------
COUNT = "2024-06-30"
rng2 = random.Random(20240531)
postings = []


def posting(kind, wh, s, count_date, key, by, at, **fields):
    p = {"posting_id": f"P-{10001 + len(postings)}", "type": kind, "warehouse": wh, "sku": s,
         "count_date": count_date, "idempotency_key": key, "created_by": by, "created_at": at}
    p.update(fields)
    postings.append(p)


# May's count: history (a decoy: some of June's rows have a May posting too, which does not
# book June's count). Nothing is booked for 2024-06-30 yet.
may_forced = {("BER-1", "BOLT-652"): ("adjustment", 3), ("HAM-2", "PIN-270"): ("adjustment", -2),
              ("HAM-2", "PIN-669"): ("recount", None), ("BER-1", "BOLT-725"): ("adjustment", 5)}
for wh in WAREHOUSES:
    stocked = sorted(s for (w, s) in expected if w == wh)
    picks = sorted(set(rng2.sample(stocked, 7)) | {s for (w, s) in may_forced if w == wh})
    for s in picks:
        kind, q = may_forced.get((wh, s), (rng2.choice(["adjustment", "adjustment", "recount"]), None))
        key = f"may-{wh}-{s}".lower()
        at = f"2024-06-0{rng2.randint(1, 4)}T0{rng2.randint(6, 9)}:{rng2.randint(10, 59)}:00Z"
        if kind == "adjustment":
            q = q if q is not None else rng2.choice([-1, 1]) * rng2.randint(1, 9)
            posting(kind, wh, s, "2024-05-31", key, "stock-team", at, qty=q)
        else:
            posting(kind, wh, s, "2024-05-31", key, "stock-team", at,
                    expected=rng2.randint(20, 300), counted=rng2.randint(0, 300))
byrow = {(r.split(",")[0], r.split(",")[1]): [int(x) for x in r.split(",")[2:]] for r in rows}
with open(os.path.join(HERE, "mcp/data/stockledger.json"), "w") as f:
    json.dump({"warehouses": [{"code": "BER-1", "status": "active"}, {"code": "HAM-2", "status": "active"},
                              {"code": "MUC-3", "status": "closed"}],
               "skus": skus, "postings": postings}, f, indent=1, sort_keys=True)

# The bookings for COUNT once the job is done: one per row.
bookings = []
for (wh, s), (e, c, d) in sorted(byrow.items()):
    if e > 0 and abs(d) * 100 <= 5 * e:
        bookings.append({"type": "adjustment", "warehouse": wh, "sku": s, "qty": d})
    else:
        bookings.append({"type": "recount", "warehouse": wh, "sku": s, "expected": e, "counted": c})
with open(os.path.join(HERE, "tests/expected_bookings.json"), "w") as f:
    json.dump({"count_date": COUNT, "bookings": bookings}, f, indent=1, sort_keys=True)
print(len(bookings), "bookings:", sum(b["type"] == "adjustment" for b in bookings), "adjustments;",
      len(postings), "postings in the ledger service")
