"""Prints when each job of a crontab fires over 2024 and 2025 (a leap year and a common one),
in a normal form that is the same for every equivalent spelling of a schedule: for each
command (as cron runs it, with the day guard of ops/JOBS.md read as a condition on the
day: cronspec.parse_crontab), its number of firings (and, when lines of one job overlap, how many extra runs cron
starts in minutes it already runs the job: each line starts its own), then each distinct set
of daily times with the days it applies to, as ranges of consecutive days. The harness
compares this, on the host, with the firing times of the signed-off schedule (which never
enter a container). It runs as the verifier user and reads the crontab through the broker
(a regular file, never a link): the sandbox user's files are not the verifier's to open.

    python3 firings.py /workspace/ops/crontab      (PYTHONPATH=/nab/lib, for nabverify)
"""
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cronspec import parse_crontab  # noqa: E402

import nabverify  # noqa: E402

YEARS = (2024, 2025)


def day_ranges(ordinals):
    out, start, prev = [], None, None
    for o in sorted(ordinals):
        if start is None:
            start = prev = o
        elif o == prev + 1:
            prev = o
        else:
            out.append((start, prev))
            start = prev = o
    if start is not None:
        out.append((start, prev))
    fmt = lambda o: datetime.date.fromordinal(o).isoformat()
    return [fmt(a) if a == b else f"{fmt(a)}..{fmt(b)}" for a, b in out]


def times(pairs):
    by_hour = {}
    for h, m in sorted(pairs):
        by_hour.setdefault(h, []).append(f"{m:02d}")
    return " ".join(f"{h:02d}:{','.join(ms)}" for h, ms in sorted(by_hour.items()))


def main(path):
    data = nabverify.read(path)
    if data is None:
        sys.exit(f"{path}: missing, or not a regular file")
    _, jobs = parse_crontab(data.decode("utf-8"))
    per_command, runs = {}, {}
    for schedule, cmd in jobs:
        fired = per_command.setdefault(cmd, set())
        for y in YEARS:
            once = schedule.firings(y)
            fired |= once
            runs[cmd] = runs.get(cmd, 0) + len(once)
    for cmd in sorted(per_command):
        fired = per_command[cmd]
        print(f"job {cmd}")
        print(f"  firings {len(fired)}")
        if runs[cmd] != len(fired):
            # Two lines of one job that match the same minute start it twice at once.
            print(f"  started twice or more in one minute: {runs[cmd] - len(fired)} extra runs")
        per_day = {}
        for day, h, m in fired:
            per_day.setdefault(day, set()).add((h, m))
        groups = {}
        for day, hm in per_day.items():
            groups.setdefault(frozenset(hm), []).append(day)
        for hm, days in sorted(groups.items(), key=lambda kv: min(kv[1])):
            print(f"  at {times(hm)}")
            for r in day_ranges(days):
                print(f"    {r}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/workspace/ops/crontab")
