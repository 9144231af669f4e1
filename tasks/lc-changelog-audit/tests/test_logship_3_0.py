"""Hidden checks of the logship 3.0.0 option clean-up. The `user: sandbox` step compiled the
workspace's CLI and /nab/probes/nabprobe/CliProbe.java into /tmp/nab-build/classes; the probe
runs Main.run for every case in one JVM, started by the broker as the sandbox user, and
prints what each case returned and wrote. Every assertion is made here; CHANGELOG.md is read
through the broker."""
import json
import re

import nabverify as nv
import pytest

CLASSES = "/tmp/nab-build/classes"
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


def lines(text):
    return [line for line in text.split("\n") if line]


@pytest.fixture(scope="module")
def results():
    names = list(CASES)
    argv = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", CLASSES, "nabprobe.CliProbe"]
    for i, name in enumerate(names):
        argv += (["::"] if i else []) + CASES[name]
    r = nv.run(argv, cwd="/tmp", timeout=60)
    assert r.ok, r.describe()
    out = {}
    for line in r.stdout.splitlines():
        seen = json.loads(line)
        assert isinstance(seen, dict) and isinstance(seen.get("case"), int) and 0 <= seen["case"] < len(names), line[:300]
        name = names[seen["case"]]
        assert name not in out, f"case {name} reported twice"
        assert "threw" not in seen, f"Main.run({CASES[name]}) threw {seen['threw']}"
        assert isinstance(seen["exit"], int) and isinstance(seen["out"], str) and isinstance(seen["err"], str), line[:300]
        out[name] = {"exit": seen["exit"], "out": lines(seen["out"]), "err": lines(seen["err"])}
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
    text = nv.read_text("/workspace/CHANGELOG.md")
    assert text is not None, "CHANGELOG.md is missing or not a regular file"
    headings = re.findall(r"^## (\S+)", text, re.M)
    assert headings and headings[0] == "3.0.0", f"first release heading is {headings[:1]}"
    # Added above 2.9.4: the 250 releases before it stay below it.
    assert headings[1:2] == ["2.9.4"] and len(headings) == 251, \
        f"below 3.0.0: {headings[1:2]} first, {len(headings) - 1} releases (want 2.9.4 first, 250)"
    section = text.split("## 3.0.0", 1)[1].split("\n## ", 1)[0]
    removed = set(re.findall(r"^- Removed `(--[a-z-]+)`", section, re.M))
    assert removed == set(REMOVED)
