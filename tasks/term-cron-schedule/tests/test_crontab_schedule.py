"""Hidden checks: the crontab must fire each job at exactly the signed-off times (compared as
sets of firing minutes over a leap year, so any equivalent cron spelling is accepted)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cronspec import Schedule, parse_crontab  # noqa: E402

CRONTAB = "/workspace/ops/crontab"
P = "cd /opt/batch && bin/"
EXPECTED = {
    P + "backup-db.sh": ["30 2 * * *"],
    P + "export-invoices.sh": ["15 6 * * 1-5"],
    P + "warm-cache.sh": ["*/15 8-17 * * 1-5"],
    P + "rotate-logs.sh --compress": ["5 0 1 * *"],
    P + "quarterly-report.sh": ["0 7 1 1,4,7,10 *"],
    P + "health-ping.sh": ["*/10 * * * 1-6", "*/10 0-2,4-23 * * 0"],
    P + "check-certs.sh": ["0 9,21 * * *"],
}
YEARS = (2024, 2025)


@pytest.fixture(scope="module")
def crontab():
    with open(CRONTAB, encoding="utf-8") as f:
        return parse_crontab(f.read())


def fires(schedules):
    out = set()
    for s in schedules:
        for y in YEARS:
            out |= s.firings(y)
    return out


def test_environment_kept(crontab):
    env, _ = crontab
    assert env == {"SHELL": "/bin/bash", "MAILTO": "ops-alerts@batch01.example",
                   "PATH": "/opt/batch/bin:/usr/bin:/bin"}


def test_same_jobs(crontab):
    _, jobs = crontab
    assert {cmd for _, cmd in jobs} == set(EXPECTED)


@pytest.mark.parametrize("command", sorted(EXPECTED))
def test_job_fires_exactly_when_specified(crontab, command):
    _, jobs = crontab
    got = fires([s for s, cmd in jobs if cmd == command])
    want = fires([Schedule(e.split()) for e in EXPECTED[command]])
    missing, extra = sorted(want - got), sorted(got - want)
    assert not missing and not extra, f"{command}: {len(missing)} missed firings (first {missing[:3]}), " \
                                      f"{len(extra)} unwanted (first {extra[:3]})"


def test_evaluator_sanity():
    # Guards the evaluator itself: Vixie OR semantics and Sunday as 0 or 7.
    # 2024: 12 firsts of the month + 53 Mondays - 3 firsts that are Mondays (Jan, Apr, Jul).
    assert len(Schedule("5 0 1 * 1".split()).firings(2024)) == 12 + 53 - 3
    assert Schedule("0 0 * * 7".split()).firings(2024) == Schedule("0 0 * * sun".split()).firings(2024)
