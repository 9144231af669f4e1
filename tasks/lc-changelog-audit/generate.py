#!/usr/bin/env python3
"""Writes the workspace's records: CHANGELOG.md (about 200 releases, 0.1.0 to 2.9.4),
docs/deprecations.md (the deprecation register, last revised for 2.4.0, with the notice
policy), docs/meetings/*.md (release-meeting notes, one every two weeks) and
docs/migrating-to-2.0.md. Routine material is generated from a fixed seed; the entries the
task is about are placed at fixed releases and meetings (KEY, KEY_MEETINGS). Deterministic:
`python3 generate.py` rebuilds the same bytes.

The decisive facts, and the hop each needs (none names the removal version):
- DEP-11 (1.8.0, the switch that turns certificate checks off = --no-verify-tls, added in
  0.4.0) has extended notice: deprecated in 1.x, it survives 2.0 and goes in 3.0.
- DEP-17 (2.1.0, the boolean compression switch added in 0.3.0 = --gzip), standard: 3.0.
- DEP-19 --batch (2.2.0), standard: 3.0.
- DEP-21 --flush-ms (2.3.0), extended (4.0) until 2.8.2 carries out item 3 of a release
  meeting (named by date), which makes DEP-21's notice standard: 3.0.
- DEP-23 --ca-file (2.4.0), standard; #2290 (2.5.1) extends it; 2.7.3 reverts #2290: 3.0.
- DEP-24 --json (2.5.0, changelog only), standard; withdrawn in 2.9.0: stays, no warning.
- DEP-25 --retry (2.6.0, #2311), standard; 2.8.0 extends "the alias kept by #2311": 4.0.
- DEP-27 (2.7.0, silent mode's old switch = --silent, added in 0.5.0), standard: 3.0.
"""
import os
import random
import datetime

rng = random.Random(37)
HERE = os.path.dirname(os.path.abspath(__file__))
WS = os.path.join(HERE, "workspace")

KEY_PRS = {2290, 2311, 2377, 2388, 2403, 2431, 2502, 2517}

# ---------------------------------------------------------------- the decisive entries
KEY = {
    "0.3.0": ["Added gzip compression of batches (`--gzip`)."],
    "0.4.0": ["Added `--no-verify-tls` for collectors with self-signed certificates."],
    "0.5.0": ["Added silent mode (`--silent`): no progress output on stderr."],
    "0.6.0": ["`--url` is superseded by `--output` (DEP-1)."],
    "0.9.0": ["`--tags` is superseded by repeated `--label KEY=VALUE` (DEP-4)."],
    "1.0.0": ["Took out `--url` (DEP-1) and the `endpoint` configuration key (DEP-2)."],
    "1.4.0": ["`--label-prefix` is superseded by `--label` (DEP-6)."],
    "1.8.0": ["Turning certificate checks off from the command line is discouraged: configure a trusted CA instead. "
              "Registered as DEP-11, with extended notice, because many test set-ups rely on it."],
    "1.9.0": ["The `/ingest` collector path is no longer on its way out: DEP-9 is withdrawn."],
    "2.0.0": ["Took out `--tags` (DEP-4), `--label-prefix` (DEP-6), `LOGSHIP_URL` (DEP-3) and the other entries "
              "whose notice ended with this release; see docs/migrating-to-2.0.md.",
              "Configuration files are no longer read from the working directory."],
    "2.1.0": ["Added `--compress none|gzip|zstd`. The boolean switch from 0.3.0 is now an alias of "
              "`--compress gzip`, registered as DEP-17."],
    "2.2.0": ["Added `--batch-size`; `--batch` is its alias for now (DEP-19)."],
    "2.2.3": ["The `batch.max` configuration key is superseded by `batch.size` (DEP-20)."],
    "2.3.0": ["Added `--flush-interval-ms`; `--flush-ms` is superseded (DEP-21). Many dashboards and scripts pass it, "
              "so it gets extended notice."],
    "2.3.1": ["Java API: `Shipper.send(String)` is superseded by `Shipper.send(Line)` (DEP-22)."],
    "2.4.0": ["Added `--tls-ca`; `--ca-file` is superseded (DEP-23).",
              "docs/deprecations.md revised: every entry up to DEP-23."],
    "2.5.0": ["Added `--format text|json`. The `--json` shorthand is registered as DEP-24, standard notice; "
              "use `--format json`."],
    "2.5.1": ["DEP-23 gets extended notice: the distribution packages still pass the old CA flag (#2290)."],
    "2.6.0": ["Renamed `--retry` to `--retries` (#2311). The old spelling stays as an alias, registered as DEP-25 "
              "with standard notice."],
    "2.6.1": ["The `LOGSHIP_HOME` environment variable is superseded by the `home` configuration key (DEP-26, "
              "extended notice)."],
    "2.7.0": ["Silent mode is now called quiet mode, switched on with `--quiet`. The old switch remains an alias, "
              "registered as DEP-27 with standard notice."],
    "2.7.3": ["Reverted #2290: the distribution packages have moved to `--tls-ca` (#2388)."],
    "2.8.0": ["The alias kept by #2311 gets extended notice: the official Helm chart still passes it (#2403)."],
    "2.8.1": ["The `flush.ms` configuration key is superseded by `flush.interval_ms` (DEP-28, standard notice)."],
    "2.8.2": ["Carried out item 3 of the release meeting of {MEETING_282} (#2431)."],
    "2.9.0": ["DEP-24 is withdrawn (#2502)."],
    "2.9.2": ["DEP-20 is withdrawn: `batch.max` stays as a synonym of `batch.size` in configuration files (#2517)."],
}

REGISTER = [
    # number, registered in, kind, subject, replacement, notice, status
    ("DEP-1", "0.6.0", "command line", "`--url`", "`--output`", "standard", "taken out in 1.0.0"),
    ("DEP-2", "0.7.0", "configuration file", "key `endpoint`", "key `output.url`", "standard", "taken out in 1.0.0"),
    ("DEP-3", "0.8.0", "environment", "`LOGSHIP_URL`", "`--output`", "extended", "taken out in 2.0.0"),
    ("DEP-4", "0.9.0", "command line", "`--tags`", "repeated `--label`", "extended", "taken out in 2.0.0"),
    ("DEP-5", "1.1.0", "Java API", "`Shipper(String url)`", "`Shipper(Config)`", "standard", "taken out in 2.0.0"),
    ("DEP-6", "1.4.0", "command line", "`--label-prefix`", "`--label`", "standard", "taken out in 2.0.0"),
    ("DEP-7", "1.5.0", "metrics", "`logship_lines`", "`logship_lines_shipped_total`", "standard", "taken out in 2.0.0"),
    ("DEP-8", "1.6.0", "configuration file", "key `retry.count`", "key `retry.max`", "extended", ""),
    ("DEP-9", "1.7.0", "collector API", "the `/ingest` path", "`/v1/ingest`", "standard", "withdrawn in 1.9.0"),
    ("DEP-10", "1.7.2", "Java API", "`Batcher.flush(boolean)`", "`Batcher.flush()`", "standard", "taken out in 2.0.0"),
    ("DEP-11", "1.8.0", "command line", "the switch that turns certificate verification off (added in 0.4.0)",
     "a trusted CA", "extended", ""),
    ("DEP-12", "1.9.0", "environment", "`LOGSHIP_DEBUG`", "`--verbose`", "standard", "taken out in 2.0.0"),
    ("DEP-13", "2.0.0", "configuration file", "key `tls.insecure`", "key `tls.ca`", "standard", ""),
    ("DEP-14", "2.0.2", "Java API", "`Config.getLabels()` returning a mutable map", "`Config.labels()`", "extended", ""),
    ("DEP-15", "2.0.4", "metrics", "`logship_bytes`", "`logship_bytes_shipped_total`", "standard", ""),
    ("DEP-16", "2.1.0", "Java API", "`Shipper.close(int)`", "`Shipper.close()`", "standard", ""),
    ("DEP-17", "2.1.0", "command line", "the boolean compression switch added in 0.3.0", "`--compress gzip`",
     "standard", ""),
    ("DEP-18", "2.1.3", "collector API", "batches sent as `text/plain`", "`application/x-ndjson`", "extended", ""),
    ("DEP-19", "2.2.0", "command line", "`--batch`", "`--batch-size`", "standard", ""),
    ("DEP-20", "2.2.3", "configuration file", "key `batch.max`", "key `batch.size`", "standard", ""),
    ("DEP-21", "2.3.0", "command line", "`--flush-ms`", "`--flush-interval-ms`", "extended", ""),
    ("DEP-22", "2.3.1", "Java API", "`Shipper.send(String)`", "`Shipper.send(Line)`", "standard", ""),
    ("DEP-23", "2.4.0", "command line", "`--ca-file`", "`--tls-ca`", "standard", ""),
]

# Meeting items placed at fixed meetings, by the release they precede ("before:V" = the
# last meeting before release V) or follow.
KEY_MEETINGS = {
    "before:2.8.0": [
        ("Helm chart", "The chart maintainers asked whether the renamed retry alias could stay longer: the "
         "chart template still passes it and they cannot change it before their own next release. "
         "Agreed to give it extended notice; Priya will write the entry for 2.8.0."),
        ("DEP-21", "The dashboards team reports that about half of the shared dashboards still pass the old flush "
         "flag. Its notice stays as registered for now; revisit when they are done."),
    ],
    "before:2.8.2": [
        ("Release status", "{rel} is out. One report of a slow start with very large label sets; not a regression, "
         "it was as slow in 2.7."),
        ("CI", "The Windows runner is still flaky on the tailer tests; Marek will quarantine the two tests and open "
         "an issue."),
        ("DEP-21", "The dashboards have moved to the interval setting (#2377); nothing else we know of passes the old "
         "flag. Its notice becomes standard. Agreed; to ship with 2.8.2."),
        ("DEP-25", "Shortening DEP-25's notice as well was proposed. Declined: the Helm chart still passes the old "
         "spelling, and the entry for 2.8.0 stands."),
        ("Docs", "The configuration reference is missing the `home` key; Lena will add it."),
    ],
    "before:2.9.0": [
        ("DEP-24", "Several users asked to keep the JSON shorthand: it is short and harmless. Agreed to withdraw "
         "DEP-24 in 2.9.0."),
        ("DEP-19", "Someone asked for a longer notice on the batch alias. Nobody could name a tool that still "
         "passes it; no change."),
    ],
    "before:2.6.0": [
        ("DEP-23", "The extended notice for the CA flag (#2290) is only needed until the distribution packages "
         "move to `--tls-ca`; Tomás is in touch with the packagers."),
    ],
    "before:2.7.3": [
        ("DEP-23", "The Debian and Fedora packages now pass `--tls-ca`. Agreed to revert #2290 in the next patch "
         "release."),
    ],
}

# ---------------------------------------------------------------- routine material
COMPONENTS = ["batcher", "HTTP client", "file tailer", "stdin reader", "gzip writer", "zstd writer", "label parser",
              "retry scheduler", "TLS setup", "dry-run printer", "JSON formatter", "text formatter", "shutdown hook",
              "metrics endpoint", "config loader", "line splitter", "backpressure queue", "DNS resolver",
              "proxy support", "checkpoint store", "journald reader", "multiline joiner", "rate limiter"]
PROBLEMS = ["an off-by-one in the line counter", "a busy loop when the collector is slow",
            "a NullPointerException on empty input", "a deadlock under high load",
            "wrong handling of UTF-8 sequences split across reads", "a leak of pooled buffers",
            "an exception swallowed on shutdown", "a timeout that ignored its setting", "a misleading log message",
            "an unbounded queue", "a race on reconnect", "a stale checkpoint after a crash",
            "a lost line when the file is truncated", "double counting of retried batches",
            "an integer overflow in the byte counter", "a wrong Content-Length with zstd",
            "a thread leak on every reconnect", "an infinite retry on HTTP 400", "a crash on an empty label value",
            "wrong time zones in text output"]
IMPROVEMENTS = ["is about {n}% faster", "allocates {n}% less", "logs its state with `--verbose`",
                "reports errors with the offending line number", "is covered by new integration tests",
                "handles {n} MB/s on a single core", "starts {n} ms sooner", "uses {n}% fewer threads"]
ROUTINE = [
    "Fixed a crash when the input file is truncated while being read.",
    "Reduced memory use when batching very long lines.",
    "Improved the error message for unreachable collectors.",
    "Retries now use exponential backoff with jitter.",
    "Fixed handling of CRLF line endings in input files.",
    "Documented the exit status codes.",
    "Labels are now sorted in the dry-run output.",
    "Updated the bundled CA certificates.",
    "The collector's HTTP 429 responses are now retried after Retry-After.",
    "Build: reproducible jar timestamps.",
    "Log lines longer than 1 MiB are split instead of rejected.",
    "Timestamps in text output now use RFC 3339.",
    "The startup banner is printed only with `--verbose`.",
    "Improved throughput on many-core machines.",
    "The HTTP client no longer uses the deprecated `HttpURLConnection` API.",
    "Prepared the wire protocol for the next major collector release.",
    "Works with collector 3.0 and later over HTTP/2.",
    "The 3.0 collector's compressed acknowledgements are understood.",
    "`--label` values may now contain spaces.",
    "`--dry-run` prints the effective compression setting.",
    "Removed a redundant flush after every batch.",
    "The tailer follows renamed files on macOS.",
    "Build: the release jar is signed.",
    "Docs: a page on running logship as a systemd service.",
    "Docs: the collector protocol is described in docs/protocol.md.",
    "The Docker image runs as a non-root user.",
    "Build: moved from Maven 3.6 to 3.9.",
    "Tests: the integration suite runs against collector 2.x and 3.x.",
    "Deprecated JDK calls in the TLS setup were replaced.",
    "`--verbose` prints each batch's size and latency.",
]
PEOPLE = ["Priya", "Marek", "Lena", "Tomás", "Aiko", "Jonas", "Sam", "Noor", "Femi", "Ilse"]
TOPICS = [
    ("Release status", ["{rel} is out; no regressions reported so far.",
                        "{rel} went out two days late because of a flaky test on the ARM runner.",
                        "Downloads of {rel} are in line with the previous release.",
                        "One user reported {prob} in the {comp} after upgrading to {rel}; {who} is looking into it (#{pr})."]),
    ("Bug triage", ["#{pr}: {prob} in the {comp}. Confirmed; {who} takes it.",
                    "#{pr}: reported as {prob} in the {comp}, but it could not be reproduced; asked the reporter for logs.",
                    "#{pr}: {prob} in the {comp}. A fix is in review and should make the next patch release.",
                    "#{pr} and #{pr2} are the same problem ({prob}); closed the second as a duplicate."]),
    ("CI", ["The {comp} tests take {n} s on the slow runner; {who} will split them.",
            "The nightly build failed twice because the collector test container did not start in time; the timeout "
            "is now {n} s.",
            "Coverage of the {comp} is at {n}%; nobody thinks that is worth chasing right now.",
            "{who} moved the benchmarks to a dedicated machine; numbers are now stable to within {n}%."]),
    ("Dependencies", ["zstd-jni {n}.{m} fixes a crash on musl; we take it in the next patch release.",
                      "The JDK {jdk} build passes; {who} will add it to the matrix.",
                      "Jackson was updated for a security advisory that does not affect us (we do not deserialize "
                      "untrusted types).",
                      "Nobody wants to move the build to Gradle; the Maven set-up works."]),
    ("Performance", ["The {comp} {imp} after #{pr}.",
                     "{who} profiled the {comp}: most of the time goes to copying buffers; an idea for a ring buffer "
                     "was noted (#{pr}).",
                     "Throughput with {n} labels per line dropped by {m}% in the last minor release; #{pr} tracks it.",
                     "Startup time is dominated by TLS set-up; not worth optimizing."]),
    ("Community", ["{who} gave a talk on logship at a local meetup; slides are linked from the wiki.",
                   "Two first-time contributors this month (#{pr}, #{pr2}).",
                   "The forum question about shipping from Kubernetes sidecars should become a docs page; {who} "
                   "volunteers.",
                   "A company asked about paid support; we have none and said so."]),
    ("Security", ["A report about {prob} in the {comp} turned out not to be exploitable; answered privately.",
                  "The bundled CA certificates are refreshed with every minor release from now on.",
                  "{who} reviewed the TLS defaults: TLS 1.2 minimum stays."]),
    ("Collector compatibility", ["Collector {n}.{m} changes its 413 response; the {comp} already handles it.",
                                 "The 3.0 collector negotiates HTTP/2; tested, works.",
                                 "Nothing new from the collector team this month."]),
    ("Register", ["DEP-14 is still used by the Kafka plugin; it keeps its notice.",
                  "DEP-18: the collector team says `text/plain` batches cost them nothing; no change.",
                  "DEP-13: nobody has asked about the `tls.insecure` key in a year.",
                  "DEP-16: the Java API docs now point to the replacement.",
                  "DEP-22: two plugins still call the old method; {who} sent them patches (#{pr}).",
                  "DEP-8: the `retry.count` key is still read; no change.",
                  "DEP-15: the Grafana dashboards use the new metric name since #{pr}."]),
    ("Docs", ["The configuration reference was regenerated from the code.",
              "{who} rewrote the quick start for the Docker image.",
              "The FAQ entry about backpressure was wrong; fixed in #{pr}."]),
]

DETAILS = ["Only set-ups with {n} or more inputs were affected.", "Reported by a user running on Alpine Linux.",
           "The problem had been there since the {comp} was introduced.", "Thanks to a first-time contributor.",
           "No configuration change is needed.", "The fix adds about {n} lines and a regression test.",
           "It showed up only under sustained load above {n} MB/s.", "Windows was not affected.",
           "The old behaviour can be seen in the integration test logs of earlier releases.",
           "Spotted by the nightly soak test after {n} hours.", "The {comp} now also logs the cause with `--verbose`.",
           "This mostly matters for containers with a read-only root file system.",
           "Benchmarks are in the pull request.", "Users of the Kubernetes sidecar set-up will notice it most.",
           "It also makes the {comp} easier to test.", "A workaround for earlier releases is described in the FAQ."]
DISCUSSION = ["{who} wondered whether the {comp} should be rewritten instead; consensus is no, not this year.",
              "{who} pointed out that the same pattern exists in the {comp}; worth a look.",
              "Nobody objected.", "{who} will write it up on the wiki.",
              "There was some back and forth about whether this belongs in a patch release; it does.",
              "We agreed to wait for one more report before spending time on it.",
              "{who} has a half-finished branch for this and will push it.",
              "The reporter is happy with the workaround for now.",
              "Numbers from the benchmark machine: {n} MB/s before, {m}0 MB/s after.",
              "It would be good to have a test that reproduces it on the CI runners.",
              "{who} asked that the next release notes mention it.",
              "This overlaps with the {comp} clean-up planned for the next minor release."]


def detail():
    return " " + rng.choice(DETAILS).format(n=rng.randint(2, 90), comp=rng.choice(COMPONENTS))


used_prs = set(KEY_PRS)


def pr():
    while True:
        n = rng.randint(100, 5999)
        if n not in used_prs:
            used_prs.add(n)
            return n


def generated_entry():
    comp = rng.choice(COMPONENTS)
    r = rng.random()
    if r < 0.12:
        return f"Removed {rng.choice(PROBLEMS)} from the {comp} (#{pr()})." + (detail() if rng.random() < 0.5 else "")
    if r < 0.18:
        return f"Reverted #{pr()}: it made the {comp} {rng.choice(['slower', 'use more memory', 'drop lines on shutdown', 'fail on Windows'])} (#{pr()})."
    if r < 0.24:
        return f"The {comp} no longer calls a deprecated JDK method (#{pr()})."
    if r < 0.65:
        return f"Fixed {rng.choice(PROBLEMS)} in the {comp} (#{pr()})." + (detail() if rng.random() < 0.7 else "")
    return f"The {comp} " + rng.choice(IMPROVEMENTS).format(n=rng.randint(5, 60)) + f" (#{pr()})."


def versions():
    """Oldest first: 0.1.0 ... 2.9.4."""
    out = []
    for major, minors in ((0, range(1, 10)), (1, range(0, 10)), (2, range(0, 10))):
        for minor in minors:
            patches = 5 if (major, minor) == (2, 9) else rng.randint(5, 11)
            if (major, minor) in ((2, 5), (2, 6), (2, 7), (2, 8)):
                patches = max(patches, 4)
            out += [f"{major}.{minor}.{patch}" for patch in range(patches)]
    return out


all_versions = versions()
dates = {}
d = datetime.date(2016, 3, 1)
for v in all_versions:
    d += datetime.timedelta(days=rng.randint(6, 14))
    dates[v] = d

meetings = []
m = datetime.date(2016, 3, 15)
while m < dates["2.9.4"]:
    meetings.append(m)
    m += datetime.timedelta(days=14)


def last_meeting_before(v):
    return max(x for x in meetings if x < dates[v])


def last_release_before(day):
    cands = [v for v in all_versions if dates[v] < day]
    return cands[-1] if cands else None


meeting_items = {}
for where in sorted(KEY_MEETINGS, key=lambda w: w != "before:2.8.2"):
    v = where.split(":")[1]
    day = max(x for x in meetings if x < dates[v] and x not in meeting_items)
    meeting_items[day] = KEY_MEETINGS[where]
m282 = last_meeting_before("2.8.2")
assert dates["2.8.0"] < m282 < dates["2.8.2"] and meeting_items[m282] is KEY_MEETINGS["before:2.8.2"]
assert all(dates["2.7.3"] < x for x, it in meeting_items.items() if it is KEY_MEETINGS["before:2.8.0"])
MEETING_282 = f"{m282.day} {m282.strftime('%B %Y')}"

# ---------------------------------------------------------------- CHANGELOG.md
lines = ["# Changelog", "",
         "All notable changes to logship, newest first. Deprecations are registered in docs/deprecations.md, each",
         "with a number (DEP-n) and a notice period; changes to an entry's notice after the register's last revision",
         "are recorded here. Numbers like #1234 are pull requests.", ""]
for v in reversed(all_versions):
    lines.append(f"## {v} ({dates[v].isoformat()})")
    lines.append("")
    entries = [e.replace("{MEETING_282}", MEETING_282) for e in KEY.get(v, [])]
    if v.endswith(".0") or not entries:
        n_routine = rng.randint(1, 3) if v.endswith(".0") else rng.randint(0, 2)
        entries += rng.sample(ROUTINE, n_routine)
        entries += [generated_entry() for _ in range(rng.randint(4, 10) if v.endswith(".0") else rng.randint(2, 6))]
    elif rng.random() < 0.6:
        entries += [generated_entry() for _ in range(rng.randint(1, 3))]
    for e in entries:
        lines.append(f"- {e}")
    lines.append("")
changelog = "\n".join(lines)

# ---------------------------------------------------------------- docs/deprecations.md
reg = ["# Deprecation register", "",
       "Revised for 2.4.0. Every interface of logship that is on its way out is registered here with a number",
       "(DEP-n), the release that registered it and a notice period.", "",
       "## Notice periods", "",
       "- **standard**: the interface keeps working, with a warning, for the rest of the major series in which it",
       "  was registered, and is taken out in the first major version released after that.",
       "- **extended**: it also survives that first major version, still warning, and is taken out in the second",
       "  major version released after the one that registered it.", "",
       "An entry may later be amended: its notice changed, or the entry withdrawn (the interface then stays and no",
       "longer warns). Amendments and new entries after this revision are recorded in CHANGELOG.md only: by register",
       "number, by the pull request of an earlier amendment, or by naming the release-meeting item that decided",
       "them (notes in docs/meetings/). A meeting's decision takes effect only with the release whose changelog",
       "entry carries it out.", "",
       "## Entries", "",
       "| number | registered in | kind | subject | replacement | notice | status |",
       "|---|---|---|---|---|---|---|"]
for row in REGISTER:
    reg.append("| " + " | ".join(row) + " |")
reg += ["", "## Kinds", "",
        "- command line: a command-line switch of the `logship` program.",
        "- configuration file: a key of `logship.conf`.",
        "- environment: an environment variable read at start-up.",
        "- Java API: a public class or method of the embedding API.",
        "- metrics: a metric name on the metrics endpoint.",
        "- collector API: how logship talks to the collector.", ""]
register = "\n".join(reg)

# ---------------------------------------------------------------- docs/migrating-to-2.0.md
mig = ["# Migrating from 1.x to 2.0", "",
       "2.0.0 took out every register entry whose notice ended with it: the standard-notice entries registered in",
       "the 1.x series and the extended-notice entries registered in the 0.x series.", "",
       "| entry | what to do |", "|---|---|",
       "| DEP-3 `LOGSHIP_URL` | pass `--output` |",
       "| DEP-4 `--tags` | pass one `--label KEY=VALUE` per label |",
       "| DEP-5 `Shipper(String url)` | build a `Config` and pass it |",
       "| DEP-6 `--label-prefix` | write the prefix into each `--label` |",
       "| DEP-7 `logship_lines` | use `logship_lines_shipped_total` |",
       "| DEP-10 `Batcher.flush(boolean)` | call `Batcher.flush()` |",
       "| DEP-12 `LOGSHIP_DEBUG` | pass `--verbose` |", "",
       "Configuration files are no longer read from the working directory: pass `--config` or put the file in",
       "`$HOME/.config/logship/`.", ""]
migration = "\n".join(mig)

# ---------------------------------------------------------------- docs/meetings/
meeting_files = {}
for day in meetings:
    rel = last_release_before(day) or "0.1.0"
    people = rng.sample(PEOPLE, rng.randint(3, 6))
    out = [f"# Release meeting, {day.day} {day.strftime('%B %Y')}", "",
           f"Present: {', '.join(people)}. Notes: {people[0]}. Latest release: {rel}.", ""]
    if day in meeting_items:
        items = list(meeting_items[day])
        if len(items) < 4:
            items = [("Release status", f"{rel} is out; no regressions reported so far.")] + items
            items.append(("Docs", "The configuration reference was regenerated from the code."))
    else:
        items = []
        for topic, templates in rng.sample(TOPICS, rng.randint(6, 9)):
            if topic == "Register" and rel < "2.1":
                continue
            sentences = []
            picked = rng.sample(templates, min(len(templates), rng.randint(1, 3)))
            picked += rng.sample(DISCUSSION, rng.randint(1, 3))
            for t in picked:
                sentences.append(t.format(rel=rel, prob=rng.choice(PROBLEMS), comp=rng.choice(COMPONENTS),
                                          who=rng.choice(people), pr=pr() if "{pr}" in t else 0,
                                          pr2=pr() if "{pr2}" in t else 0, n=rng.randint(2, 90),
                                          m=rng.randint(1, 9), imp=rng.choice(IMPROVEMENTS).format(n=rng.randint(5, 60)),
                                          jdk=rng.choice([11, 17, 21])))
            items.append((topic, " ".join(sentences)))
    for i, (topic, text) in enumerate(items, 1):
        out.append(f"{i}. **{topic}.** {text.replace('{rel}', rel)}")
        out.append("")
    acts = [f"- {rng.choice(people)}: {rng.choice(['follow up on', 'review', 'write up', 'close'])} #{pr()}."
            for _ in range(rng.randint(1, 3))]
    out += ["Actions:", ""] + acts + [""]
    meeting_files[f"{day.isoformat()}.md"] = "\n".join(out)

# ---------------------------------------------------------------- write
os.makedirs(os.path.join(WS, "docs/meetings"), exist_ok=True)
for name in os.listdir(os.path.join(WS, "docs/meetings")):
    os.remove(os.path.join(WS, "docs/meetings", name))
files = {"CHANGELOG.md": changelog, "docs/deprecations.md": register, "docs/migrating-to-2.0.md": migration}
files.update({f"docs/meetings/{k}": v for k, v in meeting_files.items()})
total = 0
for rel_path, text in sorted(files.items()):
    with open(os.path.join(WS, rel_path), "w") as f:
        f.write(text)
    total += len(text)
print(total, "bytes;", len(all_versions), "releases;", len(meeting_files), "meetings; 2.8.2 carries out", MEETING_282)
