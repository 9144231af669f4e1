"""Hidden checks on the agent's crontab. When each job fires is compared on the host (the
expect_stdout step over firings.py: the signed-off firing times never enter a container).
Here: the file keeps its environment and its jobs (each command as cron runs it: '%' rules
and the day guard of ops/JOBS.md applied), every line is standard cron syntax, and for every
job the suite's evaluator (cronspec) and a reference implementation (croniter, with the day
guard computed apart) agree on every firing over 2024-2025, so a verdict never rests on one
evaluator alone. The guard script itself is compared on the host (expect_file).
No workspace code runs: the crontab is read as data, through the broker (a regular file,
never a link), since /workspace is the sandbox user's alone."""
import calendar
import datetime
import os
import re
import sys

import nabverify
import pytest
from croniter import croniter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cronspec import MACROS, Schedule, command_text, parse_crontab, split_guard  # noqa: E402

CRONTAB = "/workspace/ops/crontab"
P = "cd /opt/batch && bin/"
COMMANDS = [P + c for c in (
    "backup-db.sh", "export-invoices.sh", "warm-cache.sh", "rotate-logs.sh --compress", "quarterly-report.sh",
    "health-ping.sh", "check-certs.sh", "close-month.sh", "export-payroll.sh", "sync-vendors.sh",
    "send-digest.sh", 'snapshot-stats.sh --day "$(date +%F)"', "reconcile-ledger.sh", "purge-tmp.sh",
    "reindex-search.sh", "send-reminders.sh", "queue-metrics.sh", "vacuum-db.sh")]
YEARS = (2024, 2025)
# crontab(5): numbers, names, '*', ranges, lists and steps; no extensions (L, W, #, ?, H).
FIELD = re.compile(r"^[0-9A-Za-z*,/-]+$")


@pytest.fixture(scope="module")
def crontab():
    data = nabverify.read(CRONTAB)
    assert data is not None, f"{CRONTAB} is missing, or not a regular file"
    return parse_crontab(data.decode("utf-8"))


def cronspec_firings(schedules):
    out = set()
    for s in schedules:
        for y in YEARS:
            out |= s.firings(y)
    return out


def guard_allows(conds, day):
    """ops/bin/today-is, computed apart from cronspec: calendar's weekday (Monday = 0) and
    month length."""
    names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    wd = calendar.weekday(day.year, day.month, day.day)
    for c in conds:
        if c in names:
            ok = wd == names.index(c)
        elif c == "weekday":
            ok = wd < 5
        elif c == "weekend":
            ok = wd >= 5
        elif c == "last-day":
            ok = day.day == calendar.monthrange(day.year, day.month)[1]
        else:
            ok = False
        if not ok:
            return False
    return True


def croniter_firings(fields, guards=()):
    """Every firing of one 5-field line by croniter: its parse of the minute and hour fields,
    and the days its own matcher picks. Vixie cron ORs day of month and day of week only when
    neither field starts with '*' (croniter would OR for '*/2' too), so that is passed as
    day_or."""
    minute, hour, dom, month, dow = fields
    expanded, _ = croniter.expand(" ".join(fields))
    minutes = range(60) if expanded[0] == ["*"] else expanded[0]
    hours = range(24) if expanded[1] == ["*"] else expanded[1]
    day_or = not (dom.startswith("*") or dow.startswith("*"))
    it = croniter(f"0 0 {dom} {month} {dow}", datetime.datetime(YEARS[0] - 1, 12, 31, 23, 59), day_or=day_or)
    out = set()
    while True:
        d = it.get_next(datetime.datetime)
        if d.year > YEARS[-1]:
            return out
        if guard_allows(guards, d.date()):
            out |= {(d.date().toordinal(), h, m) for h in hours for m in minutes}


def test_environment_kept(crontab):
    env, _ = crontab
    kept = {"SHELL": "/bin/bash", "MAILTO": "ops-alerts@batch01.example", "PATH": "/opt/batch/bin:/usr/bin:/bin"}
    assert {k: env.get(k) for k in kept} == kept
    # An added line may restate the server's zone (UTC, as JOBS.md says), never change it.
    for name in ("CRON_TZ", "TZ"):
        if name in env:
            assert env[name].strip("'\"") in ("UTC", "Etc/UTC"), f"{name}={env[name]} moves every job off UTC"


def test_same_jobs(crontab):
    _, jobs = crontab
    assert {cmd for _, cmd in jobs} == set(COMMANDS)


def test_every_line_is_standard_cron_syntax(crontab):
    _, jobs = crontab
    for s, cmd in jobs:
        assert all(FIELD.match(f) for f in s.fields), f"{cmd}: {' '.join(s.fields)!r} uses a non-standard field"
        assert croniter.is_valid(" ".join(s.fields)), f"{cmd}: croniter rejects {' '.join(s.fields)!r}"


@pytest.mark.parametrize("command", COMMANDS)
def test_reference_implementation_agrees(crontab, command):
    _, jobs = crontab
    lines = [s for s, cmd in jobs if cmd == command]
    assert lines, f"no line runs {command}"
    ours = cronspec_firings(lines)
    ref = set()
    for s in lines:
        ref |= croniter_firings(s.fields, s.guards)
    only_ours, only_ref = sorted(ours - ref), sorted(ref - ours)
    assert not only_ours and not only_ref, f"{command}: cronspec and croniter disagree: " \
        f"{len(only_ours)} firings only cronspec sees (first {only_ours[:3]}), {len(only_ref)} only croniter (first {only_ref[:3]})"


@pytest.mark.parametrize("expr", ["5 0 1 * 1", "5 0 */2 * 1", "5 0 1 * */2", "0 0 * * 7", "0 0 * * sun",
                                  "*/10 0-2,4-23 * * 0", "0 7 1 */4 *", "0 7 1 jan,apr,jul,oct *",
                                  "15 6 * * mon-fri", "*/15 8-17 * * 1-5", "0 9,21 1-31/2 * 5-7",
                                  "0 5 */2 * 1-5", "0 5 1-31/2 * 1-5", "0 9 1-7 * 1", "0 18 1,15 * fri",
                                  "0,40 8-16/2 * * *", "*/40 8-18 * * *", "*/10 3 8-31 * 0", "15 1 * * 6,7",
                                  "30 23 28-31 * *", "0 8-16/4 * * mon-fri"])
def test_evaluators_agree_on_the_hard_cases(expr):
    # Vixie OR semantics, Sunday as 0 or 7, names, steps over '*' and over ranges.
    assert cronspec_firings([Schedule(expr.split())]) == croniter_firings(expr.split())


def test_evaluator_sanity():
    # 2024: 12 firsts of the month + 53 Mondays - 3 firsts that are Mondays (Jan, Apr, Jul).
    assert len(Schedule("5 0 1 * 1".split()).firings(2024)) == 12 + 53 - 3
    # '*/2' counts as '*' for the OR rule: odd days that are Mondays (27 in 2024).
    assert len(Schedule("5 0 */2 * 1".split()).firings(2024)) == 27
    assert Schedule("0 0 * * 7".split()).firings(2024) == Schedule("0 0 * * sun".split()).firings(2024)
    assert set(MACROS) >= {"@daily", "@weekly", "@monthly"}
    # A day-of-month step over a range is restricted (OR); over '*' it is not (AND).
    odd_weekdays = sum(1 for o in range(datetime.date(2024, 1, 1).toordinal(), datetime.date(2025, 1, 1).toordinal())
                       if datetime.date.fromordinal(o).day % 2 and datetime.date.fromordinal(o).isoweekday() <= 5)
    assert len(Schedule("0 5 */2 * 1-5".split()).firings(2024)) == odd_weekdays
    odd_or_weekdays = sum(1 for o in range(datetime.date(2024, 1, 1).toordinal(), datetime.date(2025, 1, 1).toordinal())
                          if datetime.date.fromordinal(o).day % 2 or datetime.date.fromordinal(o).isoweekday() <= 5)
    assert len(Schedule("0 5 1-31/2 * 1-5".split()).firings(2024)) == odd_or_weekdays
    # The guard: 2024 has 12 last days (29 February among them) and 12 first Mondays.
    last = Schedule("30 23 28-31 * *".split(), ["last-day"]).firings(2024)
    assert len(last) == 12 and datetime.date(2024, 2, 29).toordinal() in {d for d, _, _ in last}
    assert len(Schedule("0 9 1-7 * *".split(), ["mon"]).firings(2024)) == 12


def test_command_as_cron_runs_it():
    assert command_text('bin/x.sh --day "$(date +%F)"') == 'bin/x.sh --day "$(date +'
    assert command_text('bin/x.sh --day "$(date +\\%F)"') == 'bin/x.sh --day "$(date +%F)"'
    assert split_guard("cd /opt/batch && bin/today-is sun && bin/x.sh") == ("cd /opt/batch && bin/x.sh", ["sun"])
    assert split_guard("/opt/batch/bin/today-is last-day && cd /opt/batch && bin/x.sh") == \
        ("cd /opt/batch && bin/x.sh", ["last-day"])
    # A relative guard before the cd does not run (cron starts in the user's home), and a
    # guard after the job guards nothing: both stay part of the command.
    assert split_guard("bin/today-is sun && cd /opt/batch && bin/x.sh")[1] == []
    assert split_guard("cd /opt/batch && bin/x.sh && bin/today-is sun")[1] == []
