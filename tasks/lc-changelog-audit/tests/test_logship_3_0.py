"""Hidden checks of the logship 3.0.0 option clean-up. The previous verify step compiled
the workspace sources and Probe.java into /nab/verify/classes; Probe runs Main.run for
every case in one JVM."""
import re
import subprocess

import pytest

CLASSES = "/nab/verify/classes"
REMOVED = {"--gzip": [], "--batch": ["10"], "--ca-file": ["/etc/ca.pem"], "--silent": [], "--no-verify-tls": [],
           "--flush-ms": ["250"]}
CASES = {
    "version": ["--version"],
    "defaults": ["--dry-run"],
    "new_spellings": ["--dry-run", "--compress", "gzip", "--batch-size", "10", "--tls-ca", "/etc/ca.pem", "--quiet",
                      "--format", "json", "--flush-interval-ms", "250", "--retries", "7", "--label", "env=prod"],
    "retry": ["--dry-run", "--retry", "5"],
    "json": ["--dry-run", "--json"],
    "missing_output": ["--input", "app.log"],
    **{f"removed{opt}": ["--dry-run", opt, *vals] for opt, vals in REMOVED.items()},
}


@pytest.fixture(scope="module")
def results():
    names = list(CASES)
    argv = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", CLASSES, "Probe"]
    for i, name in enumerate(names):
        argv += (["::"] if i else []) + CASES[name]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out, current = {}, None
    for line in r.stdout.splitlines():
        m = re.fullmatch(r"CASE (\d+) exit=(-?\d+)", line)
        if m:
            current = {"exit": int(m.group(2)), "out": [], "err": []}
            out[names[int(m.group(1))]] = current
        elif line.startswith("OUT "):
            current["out"].append(line[4:])
        elif line.startswith("ERR "):
            current["err"].append(line[4:])
    assert set(out) == set(names)
    return out


def settings(res):
    return dict(line.split("=", 1) for line in res["out"])


def test_version(results):
    assert results["version"]["out"] == ["logship 3.0.0"]


@pytest.mark.parametrize("opt", sorted(REMOVED))
def test_option_removed_in_3_0(results, opt):
    res = results[f"removed{opt}"]
    assert res["exit"] == 2, f"{opt} is still accepted"
    assert res["err"] == [f"logship: unknown option: {opt}"]


def test_new_spellings_work_silently(results):
    res = results["new_spellings"]
    assert res["exit"] == 0 and res["err"] == []
    s = settings(res)
    assert (s["compress"], s["batch_size"], s["tls_ca"], s["quiet"], s["format"]) == ("gzip", "10", "/etc/ca.pem", "true", "json")
    assert (s["flush_interval_ms"], s["retries"], s["label.env"]) == ("250", "7", "prod")


def test_defaults_unchanged(results):
    res = results["defaults"]
    assert res["exit"] == 0 and res["err"] == []
    assert settings(res) == {"batch_size": "500", "compress": "none", "flush_interval_ms": "1000", "format": "text",
                             "input": "-", "output": "", "quiet": "false", "retries": "3", "tls_ca": "",
                             "verbose": "false", "verify_tls": "true"}


def test_retry_removal_postponed(results):
    res = results["retry"]
    assert res["exit"] == 0 and settings(res)["retries"] == "5"
    assert len(res["err"]) == 1 and "--retry is deprecated" in res["err"][0]


def test_json_is_a_permanent_shorthand(results):
    res = results["json"]
    assert res["exit"] == 0 and settings(res)["format"] == "json"
    assert res["err"] == [], "--json is no longer deprecated and must not warn"


def test_usage_errors_unchanged(results):
    assert results["missing_output"]["exit"] == 2
    assert results["missing_output"]["err"] == ["logship: --output is required"]


def test_changelog_3_0_0_section():
    with open("/workspace/CHANGELOG.md", encoding="utf-8") as f:
        text = f.read()
    headings = re.findall(r"^## (\S+)", text, re.M)
    assert headings and headings[0] == "3.0.0", f"first release heading is {headings[:1]}"
    section = text.split("## 3.0.0", 1)[1].split("\n## ", 1)[0]
    removed = set(re.findall(r"^- Removed `(--[a-z-]+)`", section, re.M))
    assert removed == set(REMOVED)
