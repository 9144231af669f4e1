#!/usr/bin/env python3
"""Writes workspace/CHANGELOG.md: ~130 releases of routine entries (generated) with the
deprecation history the task is about placed at fixed versions. Deterministic."""
import os
import random

rng = random.Random(29)
HERE = os.path.dirname(os.path.abspath(__file__))
KEY = {
    "1.4.0": ["Deprecated `--label-prefix` (use `--label`); it will be removed in 2.0."],
    "2.0.0": ["Removed `--label-prefix` (deprecated in 1.4; use `--label`).",
              "Configuration files are no longer read from the working directory."],
    "2.1.0": ["Added `--compress none|gzip|zstd`. The boolean `--gzip` switch is deprecated in favour of `--compress gzip` and goes away in the next major release."],
    "2.2.0": ["Added `--batch-size`; deprecated `--batch`, which will be removed in 3.0.",
              "Deprecated `--no-verify-tls`: disabling certificate checks is unsafe; configure a trusted CA instead. It will be removed in 3.0."],
    "2.2.3": ["Deprecated the `batch.max` configuration-file key (use `batch.size`); it will be removed in 3.0. Command-line options are not affected."],
    "2.3.0": ["Added `--flush-interval-ms`. Deprecated `--flush-ms`; because many dashboards and scripts pass it, its removal is planned for 4.0, not 3.0."],
    "2.4.0": ["Added `--tls-ca`; deprecated `--ca-file` (removal in 3.0)."],
    "2.5.0": ["Added `--format text|json`. Deprecated `--json` in favour of `--format json`; removal in 3.0."],
    "2.6.0": ["Renamed `--retry` to `--retries`; the old spelling is deprecated and will be removed in 3.0."],
    "2.6.2": ["`--retries` accepts 0 (no retries)."],
    "2.7.0": ["Deprecated `--silent` (use `--quiet`). Scheduled for removal in 3.0."],
    "2.8.0": ["The removal of the spelling renamed in 2.6.0 is postponed to 4.0: the official Helm chart still passes it."],
    "2.8.2": ["The dashboards have moved to the new flush setting, so the option deprecated in 2.3.0 goes in 3.0 after all, with the others."],
    "2.9.0": ["The deprecation made in 2.5.0 is withdrawn: that shorthand stays permanently and no longer prints a warning."],
}
ROUTINE = [
    "Fixed a crash when the input file is truncated while being read.",
    "Reduced memory use when batching very long lines.",
    "Improved the error message for unreachable collectors.",
    "Retries now use exponential backoff with jitter.",
    "Fixed handling of CRLF line endings in input files.",
    "Documented the exit status codes.",
    "Labels are now sorted in the dry-run output.",
    "Fixed a race between flushing and shutdown that could drop the last batch.",
    "Updated the bundled CA certificates.",
    "The collector's HTTP 429 responses are now retried after Retry-After.",
    "Faster JSON encoding of log lines.",
    "Fixed `--dry-run` printing the wrong input path when reading stdin.",
    "Build: reproducible jar timestamps.",
    "Fixed a file descriptor leak when the input is rotated.",
    "Log lines longer than 1 MiB are split instead of rejected.",
    "Timestamps in text output now use RFC 3339.",
    "Fixed zstd compression level being ignored.",
    "The startup banner is printed only with `--verbose`.",
    "Fixed label values containing `=`.",
    "Improved throughput on many-core machines.",
    "Removed a busy loop in the file tailer when the input is idle.",
    "The HTTP client no longer uses the deprecated `HttpURLConnection` API.",
    "Prepared the wire protocol for collectors of the 3.0 series.",
    "Removed the undocumented `LOGSHIP_DEBUG` environment variable (use `--verbose`).",
    "Deprecated Java API: `Shipper.send(String)` (use `Shipper.send(Line)`); the command line is not affected.",
    "`--label` values may now contain spaces.",
    "`--dry-run` prints the effective `--compress` setting.",
    "Removed a redundant flush after every batch.",
    "Works with collector 3.0 and later over HTTP/2.",
    "`--tls-ca` accepts a directory of certificates.",
]


COMPONENTS = ["batcher", "HTTP client", "file tailer", "stdin reader", "gzip writer", "zstd writer",
              "label parser", "retry scheduler", "TLS setup", "dry-run printer", "JSON formatter",
              "text formatter", "shutdown hook", "metrics endpoint", "config loader"]
PROBLEMS = ["an off-by-one in the line counter", "a busy loop when the collector is slow",
            "a NullPointerException on empty input", "a deadlock under high load",
            "wrong handling of UTF-8 sequences split across reads", "a leak of pooled buffers",
            "an exception swallowed on shutdown", "a timeout that ignored its setting",
            "a misleading log message", "an unbounded queue", "a race on reconnect"]
IMPROVEMENTS = ["is about {n}% faster", "allocates {n}% less", "logs its state with `--verbose`",
                "reports errors with the offending line number", "is covered by new integration tests",
                "handles {n} MB/s on a single core"]


def generated():
    comp = rng.choice(COMPONENTS)
    if rng.random() < 0.15:
        return f"Removed {rng.choice(PROBLEMS)} from the {comp} (#{rng.randint(100, 2400)})."
    if rng.random() < 0.1:
        return f"The {comp} no longer calls a deprecated JDK method (#{rng.randint(100, 2400)})."
    if rng.random() < 0.6:
        return f"Fixed {rng.choice(PROBLEMS)} in the {comp} (#{rng.randint(100, 2400)})."
    return f"The {comp} " + rng.choice(IMPROVEMENTS).format(n=rng.randint(5, 60)) + f" (#{rng.randint(100, 2400)})."


def versions():
    """Oldest first: 0.1.0 ... 2.9.4 with a few patch releases per minor."""
    out = []
    for major, minors in ((0, range(1, 10)), (1, range(0, 10)), (2, range(0, 10))):
        for minor in minors:
            patches = 5 if (major, minor) == (2, 9) else rng.randint(2, 6)
            out += [f"{major}.{minor}.{patch}" for patch in range(patches)]
    return out


lines = ["# Changelog", "", "All notable changes to logship. Newest first. Deprecations say when the",
         "option is scheduled to be removed; a later entry may change that plan.", ""]
all_versions = versions()
for idx, v in enumerate(reversed(all_versions)):
    day = 1 + (len(all_versions) - idx) * 9
    date = f"{2016 + day // 365}-{1 + (day % 365) // 31:02d}-{1 + (day % 31) % 28:02d}"
    lines.append(f"## {v} ({date})")
    lines.append("")
    entries = list(KEY.get(v, []))
    if v.endswith(".0") or not entries:
        entries += rng.sample(ROUTINE, rng.randint(1, 3))
        entries += [generated() for _ in range(rng.randint(1, 5))]
    for e in entries:
        lines.append(f"- {e}")
    lines.append("")
with open(os.path.join(HERE, "workspace/CHANGELOG.md"), "w") as f:
    f.write("\n".join(lines))
print(len("\n".join(lines)), "bytes,", len(all_versions), "versions")
