"""A small Vixie-cron crontab evaluator: enough of crontab(5) to compute exactly when a job
fires and which command it runs. Day-of-month and day-of-week combine the Vixie way: when
both fields are restricted (neither starts with '*'), a day matches if EITHER matches. In
the command, an unescaped '%' ends the command (the rest is its standard input) and '\\%'
is a literal '%'. batch01's day guard (ops/JOBS.md: `bin/today-is COND... &&` in front of
the job's command) is read as a further condition on the day: the job's identity is its
command without the guard."""
import datetime

MONTHS = {m: i + 1 for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split())}
DAYS = {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}
FIELDS = [("minute", 0, 59, {}), ("hour", 0, 23, {}), ("day of month", 1, 31, {}),
          ("month", 1, 12, MONTHS), ("day of week", 0, 7, DAYS)]
MACROS = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
          "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}
# The guard's spellings that run it (`today-is` only where PATH has /opt/batch/bin: cron gives
# each line the environment set by the lines above it; `bin/today-is` only once the command is
# in /opt/batch) and the conditions it knows (ops/bin/today-is).
GUARD_ANYWHERE = ("/opt/batch/bin/today-is",)
GUARD_ON_PATH = ("today-is",)
BATCH_BIN = "/opt/batch/bin"
GUARD_AFTER_CD = ("bin/today-is", "./bin/today-is")
CD = "cd /opt/batch"
GUARD_CONDITIONS = set(DAYS) | {"weekday", "weekend", "last-day"}


class CronError(ValueError):
    pass


def _value(text, lo, hi, names, what):
    v = names.get(text.lower()) if not text.isdigit() else int(text)
    if v is None or not lo <= v <= hi:
        raise CronError(f"{what}: {text!r} is not in {lo}-{hi}")
    return v


def parse_field(text, lo, hi, names, what):
    out = set()
    for part in text.split(","):
        rng, _, step = part.partition("/")
        if step and not step.isdigit():
            raise CronError(f"{what}: bad step in {part!r}")
        step = int(step) if step else 1
        if not step or step < 1:
            raise CronError(f"{what}: bad step in {part!r}")
        if rng == "*":
            a, b = lo, hi
        elif "-" in rng:
            x, y = rng.split("-", 1)
            a, b = _value(x, lo, hi, names, what), _value(y, lo, hi, names, what)
            if a > b:
                raise CronError(f"{what}: empty range {rng!r}")
        else:
            if "/" in part:
                raise CronError(f"{what}: a step needs a range or '*': {part!r}")
            a = b = _value(rng, lo, hi, names, what)
        out.update(range(a, b + 1, step))
    return out


def guard_holds(cond, d):
    """Whether ops/bin/today-is COND exits 0 on date d."""
    if cond in DAYS:
        return d.isoweekday() % 7 == DAYS[cond]
    if cond == "weekday":
        return d.isoweekday() <= 5
    if cond == "weekend":
        return d.isoweekday() >= 6
    if cond == "last-day":
        return (d + datetime.timedelta(days=1)).day == 1
    raise CronError(f"today-is: unknown condition {cond!r}")


class Schedule:
    def __init__(self, fields, guards=()):
        if len(fields) != 5:
            raise CronError(f"need 5 fields, got {fields!r}")
        self.fields = list(fields)
        self.guards = list(guards)
        self.sets = [parse_field(f, lo, hi, names, what) for f, (what, lo, hi, names) in zip(fields, FIELDS)]
        if 7 in self.sets[4]:
            self.sets[4] = (self.sets[4] - {7}) | {0}
        self.dom_star = fields[2].startswith("*")
        self.dow_star = fields[4].startswith("*")

    def day_matches(self, d):
        dom = d.day in self.sets[2]
        dow = (d.isoweekday() % 7) in self.sets[4]
        if d.month not in self.sets[3]:
            return False
        if not all(guard_holds(c, d) for c in self.guards):
            return False
        if self.dom_star or self.dow_star:
            return dom and dow
        return dom or dow

    def firings(self, year):
        d = datetime.date(year, 1, 1)
        out = set()
        while d.year == year:
            if self.day_matches(d):
                for h in self.sets[1]:
                    for m in self.sets[0]:
                        out.add((d.toordinal(), h, m))
            d += datetime.timedelta(days=1)
        return out


def command_text(text):
    """What cron runs: the text up to the first unescaped '%', with '\\%' as '%'."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] == "%":
            out.append("%")
            i += 2
            continue
        if c == "%":
            break
        out.append(c)
        i += 1
    return " ".join("".join(out).split())


def split_guard(cmd, on_path=True):
    """(the job's command without the day guard, the guard's conditions). on_path: whether the
    line's PATH has /opt/batch/bin, so that a bare `today-is` runs the guard."""
    segs = [" ".join(s.split()) for s in cmd.split("&&")]
    rest, conds, in_dir = [], [], False
    for i, seg in enumerate(segs):
        words = seg.split()
        prog = words[0] if words else ""
        last = i == len(segs) - 1
        if not last and (prog in GUARD_ANYWHERE or (on_path and prog in GUARD_ON_PATH)
                         or (in_dir and prog in GUARD_AFTER_CD)):
            if len(words) < 2:
                raise CronError("today-is needs a condition")
            for w in words[1:]:
                if w not in GUARD_CONDITIONS:
                    raise CronError(f"today-is: unknown condition {w!r}")
            conds.extend(words[1:])
            continue
        if seg == CD:
            in_dir = True
        rest.append(seg)
    return " && ".join(rest), conds


def parse_crontab(text):
    """Returns (env, jobs): env maps names to values; jobs is a list of (Schedule, command),
    the command as cron runs it, less the day guard (whose conditions are the Schedule's). As
    in cron, a job line has the environment of the lines above it (PATH, for the guard)."""
    env, jobs = {}, []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        first = line.split(None, 1)[0]
        if "=" in first.split("/")[0] and not first.startswith("@") and not first[0].isdigit() and first[0] != "*":
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
            continue
        try:
            if line.startswith("@"):
                macro, _, cmd = line.partition(" ")
                if macro not in MACROS:
                    raise CronError(f"unsupported {macro}")
                fields = MACROS[macro].split()
            else:
                parts = line.split(None, 5)
                if len(parts) < 6:
                    raise CronError("a job needs 5 time fields and a command")
                fields, cmd = parts[:5], parts[5]
            path = env.get("PATH", "").strip("'\"").split(":")
            job, conds = split_guard(command_text(cmd), BATCH_BIN in path or BATCH_BIN + "/" in path)
            jobs.append((Schedule(fields, conds), job))
        except CronError as e:
            raise CronError(f"line {n}: {e}") from None
    return env, jobs
