"""Runs the agent's report script on LOG_DIR, from a scratch folder, into a fresh file and
prints that file. The harness compares the output, on the host, with the expected summary
(expected/ in the task folder, which never enters a container). Whatever the script itself
prints is not part of the report.

This runs as the verifier user; the script runs only as the sandbox user, through the
broker. Logs under /nab/tests (which the sandbox user cannot read) are first copied, as
inputs, into a folder of the sandbox user's. The report is read back through the broker,
as a regular file (not a link).

    python3 run_report.py LOG_DIR"""
import os
import sys

import nabverify as nv


def main(log_dir):
    if log_dir.startswith("/nab/tests/"):
        copy = "/tmp/report-logs-%d" % os.getpid()
        for name in sorted(os.listdir(log_dir)):
            with open(os.path.join(log_dir, name), "rb") as f:
                nv.write("%s/%s" % (copy, name), f.read())
        log_dir = copy
    made = nv.run(["mktemp", "-d"], cwd="/tmp", timeout=10)
    if not made.ok:
        sys.exit("mktemp -d failed: " + made.describe())
    scratch = made.stdout.strip()
    r = nv.run(["timeout", "30", "bash", "/workspace/report/make_report.sh", log_dir, scratch + "/summary.csv"],
               cwd=scratch, timeout=40)
    sys.stderr.write(r.stderr[-4000:])
    if not r.ok:
        sys.exit("make_report.sh failed: " + r.describe())
    data = nv.read(scratch + "/summary.csv")
    if data is None:
        sys.exit("make_report.sh wrote no regular file at OUT_CSV")
    sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main(sys.argv[1])
