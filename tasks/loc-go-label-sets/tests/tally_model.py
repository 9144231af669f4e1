"""The runner's model of tally's export, from README.md's rules: a series' labels are
its tenant's labels, then the line's tags in order (a tag replaces a label of the same
name), then the tenant's relabel rules in order; its name is the tenant's prefix and the
line's sanitized name; counters add value x 1/rate, gauges keep the last value,
histograms count observations by inclusive upper bound; the export lists the series by
name, then labels, every series with `job` set to export.job when there is one and a
histogram's buckets (`le`, then `+Inf`), `_sum` and `_count`. Every expected value of the
hidden tests comes from here, in the verifier's process."""

import bisect
import json
import re
from decimal import Decimal

NAME_OK = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


def fmt(v):
    if v != v:
        return "NaN"
    if v == float("inf"):
        return "+Inf"
    if v == float("-inf"):
        return "-Inf"
    s = format(Decimal(repr(v)), "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def sanitize(raw):
    if not raw:
        return None
    out = []
    for i, c in enumerate(raw):
        if c in ".-":
            out.append("_")
        elif c == "_" or ("a" <= c <= "z") or ("A" <= c <= "Z"):
            out.append(c)
        elif "0" <= c <= "9":
            if i == 0:
                return None
            out.append(c)
        else:
            return None
    return "".join(out)


def parse_line(line):
    """(name, value, kind, rate, tags) or None for a refused line."""
    line = line.strip()
    colon = line.find(":")
    if colon <= 0:
        return None
    name = sanitize(line[:colon])
    if name is None:
        return None
    fields = line[colon + 1:].split("|")
    if len(fields) < 2:
        return None
    try:
        value = float(fields[0])
    except ValueError:
        return None
    kind = {"c": "counter", "g": "gauge", "ms": "histogram", "h": "histogram"}.get(fields[1])
    if kind is None:
        return None
    rate, tags = 1.0, []
    for f in fields[2:]:
        if f.startswith("@"):
            rate = float(f[1:])
            if not (0 < rate <= 1):
                return None
        elif f.startswith("#"):
            for p in f[1:].split(","):
                if not p:
                    continue
                n, _, v = p.partition(":") if ":" in p else (p, "", "true")
                n = sanitize(n)
                if n is None or n.startswith("__"):
                    return None
                tags.append((n, v))
        else:
            return None
    if kind == "counter" and value < 0:
        return None
    return name, value, kind, rate, tags


def apply_rule(d, text):
    f = text.split()
    if f[0] == "set":
        d[f[1]] = f[2]
    elif f[0] == "default":
        d.setdefault(f[1], f[2])
    elif f[0] == "drop":
        d.pop(f[1], None)
    elif f[0] == "rename":
        if f[1] in d:
            d[f[2]] = d.pop(f[1])
    elif f[0] == "when":
        m = f[1]
        op = "!=" if "!=" in m else "="
        n, _, v = m.partition(op)
        have = d.get(n, "")
        if (have == v) == (op == "="):
            apply_rule(d, " ".join(f[2:]))
    else:
        raise ValueError(text)


def esc(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def labelstr(d):
    return "{" + ",".join('%s="%s"' % (k, esc(d[k])) for k in sorted(d)) + "}"


class Series:
    def __init__(self, name, labels, kind, bounds):
        self.name, self.labels, self.kind = name, labels, kind
        self.total = 0.0
        self.value = 0.0
        self.counts = [0.0] * (len(bounds) + 1)
        self.sum = 0.0
        self.count = 0.0


def export(config, records):
    """The export text (prom) or JSON lines tally must write for config and records
    [(tenant, line)]."""
    tenants = config.get("tenants") or {}
    bounds = sorted(config["histogram"]["buckets"])
    job = (config.get("export") or {}).get("job") or ""
    form = (config.get("export") or {}).get("format") or "prom"
    reg, per_tenant = {}, {}
    for tid, line in records:
        t = tenants.get(tid)
        if t is None:
            continue
        m = parse_line(line)
        if m is None:
            continue
        name, value, kind, rate, tags = m
        d = dict(t.get("labels") or {})
        for n, v in tags:
            d[n] = v
        for rule in t.get("relabel") or []:
            apply_rule(d, rule)
        name = (t.get("prefix") or "") + name
        key = (name, tuple(sorted(d.items())))
        s = reg.get(key)
        if s is None:
            limit = t.get("max_series") or 0
            if limit > 0 and per_tenant.get(tid, 0) >= limit:
                continue
            s = reg[key] = Series(name, d, kind, bounds)
            per_tenant[tid] = per_tenant.get(tid, 0) + 1
        elif s.kind != kind:
            continue
        weight = 1 / rate
        if kind == "counter":
            s.total += value * weight
        elif kind == "gauge":
            s.value = value
        else:
            s.counts[bisect.bisect_left(bounds, value)] += weight
            s.sum += value * weight
            s.count += weight
    samples = []
    for s in sorted(reg.values(), key=lambda s: (s.name, labelstr(s.labels))):
        ls = dict(s.labels)
        if job:
            ls["job"] = job
        if s.kind == "counter":
            samples.append((s.name, s.name, ls, s.total, s.kind))
        elif s.kind == "gauge":
            samples.append((s.name, s.name, ls, s.value, s.kind))
        else:
            run = 0.0
            cum = []
            for c in s.counts:
                run += c
                cum.append(run)
            for b, c in zip(bounds + [None], cum):
                samples.append((s.name, s.name + "_bucket", dict(ls, le="+Inf" if b is None else fmt(b)), c, s.kind))
            samples.append((s.name, s.name + "_sum", ls, s.sum, s.kind))
            samples.append((s.name, s.name + "_count", ls, s.count, s.kind))
    out = []
    if form == "json":
        for _, name, ls, v, kind in samples:
            out.append(json.dumps({"name": name, "labels": {k: ls[k] for k in sorted(ls)}, "value": fmt(v), "kind": kind},
                                  separators=(",", ":")) + "\n")
        return "".join(out)
    family = None
    for fam, name, ls, v, kind in samples:
        if fam != family:
            family = fam
            out.append("# TYPE %s %s\n" % (fam, kind))
        out.append(name + (labelstr(ls) if ls else "") + " " + fmt(v) + "\n")
    return "".join(out)
