"""Prints the reconciliation report normalized: each non-empty CSV row with its cells
stripped, joined by commas. The harness compares this, on the host, with the expected
rows (expected/rows.csv in the task folder, which never enters a container). Reads only
the report; nothing from the workspace runs. It runs as the verifier user, which cannot read
the workspace: the report is read through the broker, as the sandbox user, and only as a
regular file (not a link)."""
import csv
import io
import sys

import nabverify as nv

REPORT = "/workspace/reports/reconcile-2024-06-30.csv"

data = nv.read(REPORT)
if data is None:
    sys.exit("the report is missing or not a regular file")
with io.StringIO(data.decode("utf-8"), newline="") as f:
    for row in csv.reader(f):
        if row:
            sys.stdout.write(",".join(c.strip() for c in row) + "\n")
