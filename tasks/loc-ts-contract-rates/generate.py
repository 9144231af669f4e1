#!/usr/bin/env python3
"""Writes workspace/data/usage/2026-03.jsonl: the meters' records of March 2026 for the
sample accounts (deterministic: a fixed seed). Each subscription's api_calls are spread over
the month's days; some lines repeat a record (meters retry), some use a metric alias, and a
few late records of February sit in the file too (the period filter drops them)."""
import json
import pathlib
import random

TARGETS = {  # subscription: (api_calls, storage_gb) for March
    "sub-acme-1": (1_240_000, 130),
    "sub-nw-1": (3_150_000, 420),
    "sub-nwl-1": (260_000, 18),
    "sub-gx-1": (900_000, 90),
    "sub-in-1": (2_400_000, 1_650),
    "sub-in-2": (610_000, 140),
    "sub-ho-0": (5_000, 2),
    "sub-ho-1": (720_000, 100),
    "sub-um-1": (150_000, 12),
    "sub-wy-1": (95_000, 25),
}
API_NAMES = ["api_calls", "api_calls", "api_calls", "API-Calls", "requests"]


def split(total, parts, rng):
    cuts = sorted(rng.randrange(1, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


def main():
    rng = random.Random(20260331)
    lines = []
    for sub, (api, storage) in TARGETS.items():
        for day, q in enumerate(split(api, 31, rng), start=1):
            rec = {"id": f"{sub}-a{day:02d}", "subscription": sub, "metric": rng.choice(API_NAMES),
                   "quantity": q, "day": f"2026-03-{day:02d}"}
            lines.append(rec)
            if rng.random() < 0.08:
                lines.append(dict(rec))  # a retried delivery of the same record
        lines.append({"id": f"{sub}-s03", "subscription": sub, "metric": "storage", "quantity": storage,
                      "day": "2026-03-31"})
        lines.append({"id": f"{sub}-late", "subscription": sub, "metric": "api_calls",
                      "quantity": rng.randrange(1000, 9000), "day": "2026-02-28"})
    rng.shuffle(lines)
    out = pathlib.Path(__file__).parent / "workspace" / "data" / "usage" / "2026-03.jsonl"
    out.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in lines))


if __name__ == "__main__":
    main()
