//! `nab import harbor` on the Harbor-format fixtures in `tests/fixtures/harbor/`: the two
//! valid tasks convert (packages, set-up, workspace files, paths, timeouts and limits
//! carried over) and pass `nab validate` with real Docker; every other fixture is refused
//! with its reason, and nothing of it is written.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/harbor")
}

fn import(out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["import", "harbor"])
        .arg(fixtures())
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    String::from_utf8(o.stdout).unwrap()
}

/// The table's text for one task (its first line and the lines continuing it).
fn row(table: &str, id: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for l in table.lines() {
        if l.starts_with(&format!("{id} ")) {
            inside = true;
        } else if !l.starts_with(' ') {
            inside = false;
        }
        if inside {
            out.push_str(l);
            out.push('\n');
        }
    }
    assert!(!out.is_empty(), "no row for {id}:\n{table}");
    out
}

#[test]
fn valid_fixtures_convert_and_each_refusal_says_why() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("tasks");
    let table = import(&out);
    assert!(table.contains("2 converted, 7 refused"), "{table}");
    for id in ["hello-jq", "word-count"] {
        let r = row(&table, id);
        assert!(r.contains("converted"), "{r}");
        assert!(r.contains("nab validate skips that check"), "{r}");
    }
    for (id, why) in [
        (
            "net-fetch",
            "needs the network at run time (allow_internet = true)",
        ),
        ("net-fetch", "solution/solve.sh line 2 uses `curl`"),
        ("reward-self", "writes a reward file"),
        ("reward-self", "runs no pytest"),
        ("db-service", "a service (`EXPOSE 5432`"),
        (
            "db-service",
            "a service's state is the verdict: tests/test_outputs.py",
        ),
        ("gpu-train", "needs GPUs (gpus = 1)"),
        (
            "compose-web",
            "compose file (environment/docker-compose.yaml)",
        ),
        (
            "prebuilt-image",
            "prebuilt image (docker_image = \"ghcr.io/example/prebuilt:1.0\")",
        ),
        ("unpinned-download", "pip package `requests` is not pinned"),
        ("unpinned-download", "downloads with wget at build time"),
    ] {
        let r = row(&table, id);
        assert!(
            r.contains("refused") && r.contains(why),
            "{id}: wanted {why:?}\n{r}"
        );
        assert!(!out.join(id).exists(), "a refused task was written: {id}");
    }
    // Nothing half-written is left beside the tasks.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let t = nab_harness::task::load_task(&out.join("hello-jq")).unwrap_or_else(|e| panic!("{e:?}"));
    let env = t.spec.environment.clone().expect("an environment");
    assert_eq!(env.apt, ["jq"]);
    assert_eq!(env.pip, ["tomli==2.0.1"]);
    assert_eq!(
        env.setup,
        ["mkdir -p /opt/fixture && echo \"built at image time\" > /opt/fixture/stamp"]
    );
    assert_eq!(t.spec.origin, Some(nab_harness::task::Origin::Harbor));
    assert_eq!(
        (t.spec.timeouts.agent_s, t.spec.timeouts.verify_s),
        (300.0, 90.0)
    );
    assert_eq!(
        (
            t.spec.limits.cpus,
            t.spec.limits.memory_mb,
            t.spec.limits.disk_mb
        ),
        (1.0, 768, 512)
    );
    assert!(t.wrong.is_empty());
    let ws = out.join("hello-jq/workspace");
    assert!(ws.join("data/orders.json").is_file() && ws.join("config.toml").is_file());
    assert!(
        !out.join("hello-jq/tests/test.sh").exists(),
        "test.sh is never carried over"
    );
    let test = std::fs::read_to_string(out.join("hello-jq/tests/test_outputs.py")).unwrap();
    assert!(
        test.contains("Path(\"/workspace\")") && !test.contains("/app"),
        "{test}"
    );
    let instruction = std::fs::read_to_string(out.join("hello-jq/instruction.md")).unwrap();
    assert!(
        instruction.contains("/workspace/data/orders.json"),
        "{instruction}"
    );
    let solve = std::fs::read_to_string(out.join("hello-jq/solution/solve.sh")).unwrap();
    assert!(solve.contains("cd /workspace"), "{solve}");

    let w = nab_harness::task::load_task(&out.join("word-count")).unwrap();
    assert!(
        w.spec.environment.is_none(),
        "no packages: the base image serves"
    );
    assert_eq!(w.spec.category, nab_harness::task::Category::BugFix);
    assert_eq!(w.spec.language, "python");

    // A second import never overwrites what the first wrote.
    let again = import(&out);
    assert!(
        row(&again, "hello-jq").contains("already exists"),
        "{again}"
    );
}

#[test]
fn converted_tasks_pass_nab_validate() {
    let root = common::agent_root();
    let out = root.path().join("tasks");
    import(&out);
    let run_id = common::unique("import-validate");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["validate", "-j", "2", "--run-id", &run_id, "--tasks"])
        .arg(&out)
        .arg("--out")
        .arg(root.path().join("runs"))
        .args(["hello-jq", "word-count"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("all tasks valid"), "{stdout}");
    for id in ["hello-jq", "word-count"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(id))
            .unwrap_or_default();
        assert!(
            line.contains("pass") && line.contains("skipped:imported") && line.ends_with("ok"),
            "{stdout}"
        );
    }
}
