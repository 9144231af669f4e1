"""A small Vixie-cron expression evaluator: enough of crontab(5) to compute exactly when a
job fires. Day-of-month and day-of-week combine the Vixie way: when both fields are
restricted (neither starts with '*'), a day matches if EITHER matches."""
import datetime

MONTHS = {m: i + 1 for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split())}
DAYS = {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}
FIELDS = [("minute", 0, 59, {}), ("hour", 0, 23, {}), ("day of month", 1, 31, {}),
          ("month", 1, 12, MONTHS), ("day of week", 0, 7, DAYS)]
MACROS = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
          "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}


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


class Schedule:
    def __init__(self, fields):
        if len(fields) != 5:
            raise CronError(f"need 5 fields, got {fields!r}")
        self.fields = list(fields)
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


def parse_crontab(text):
    """Returns (env, jobs): env maps names to values; jobs is a list of (Schedule, command)."""
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
            jobs.append((Schedule(fields), " ".join(cmd.split())))
        except CronError as e:
            raise CronError(f"line {n}: {e}") from None
    return env, jobs
