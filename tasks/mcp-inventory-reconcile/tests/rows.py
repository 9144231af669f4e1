"""Prints the reconciliation report normalized: each non-empty CSV row with its cells
stripped, joined by commas. The harness compares this, on the host, with the expected
rows (expected/rows.csv in the task folder, which never enters a container). Reads only
the report; nothing from the workspace runs."""
import csv
import sys

REPORT = "/workspace/reports/reconcile-2024-06-30.csv"

with open(REPORT, newline="", encoding="utf-8") as f:
    for row in csv.reader(f):
        if row:
            sys.stdout.write(",".join(c.strip() for c in row) + "\n")
