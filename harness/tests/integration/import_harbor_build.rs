//! `nab import harbor` on tasks whose Dockerfile builds files in its working directory,
//! with the real Docker engine: the `shop-db` fixture (`sqlite3 /app/shop.db <
//! /app/shop.sql` at build time) converts, its workspace holds what the steps built, and
//! `nab validate` passes it; Dockerfiles whose steps attack the import (writes outside
//! the working directory, links out of it, special files, a huge or oversized working
//! directory, the network, a step that never ends) are each refused naming the step and
//! why, within bounded time, with nothing left on the host or the engine.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/harbor-build/shop-db")
}

/// `nab import harbor SRC --out OUT [extra]` with its own state folder (disk quotas).
fn import(src: &Path, out: &Path, state: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["import", "harbor"])
        .arg(src)
        .arg("--out")
        .arg(out)
        .args(extra)
        .env("NAB_STATE_DIR", state)
        // The oversized case checks the quota's own message.
        .env_remove("NAB_DISK_QUOTA")
        .output()
        .unwrap()
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

/// What the import left on the engine for `task`, and in the quota state folder.
fn leftovers(task: &str, state: &Path) -> Vec<String> {
    let (containers, volumes) = common::labelled(&format!("nab.task={task}"));
    let quotas: Vec<String> = std::fs::read_dir(state.join("quota"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    containers
        .into_iter()
        .chain(volumes)
        .chain(quotas)
        .collect()
}

#[test]
fn a_dockerfile_that_builds_its_data_converts_and_passes_nab_validate() {
    let root = common::agent_root();
    let (out, state) = (root.path().join("tasks"), root.path().join("state"));
    let o = import(&fixture(), &out, &state, &[]);
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    let r = row(&table, "shop-db");
    assert!(r.contains("converted"), "{table}\n{o:?}");
    assert!(
        r.contains("`RUN sqlite3 /app/shop.db < /app/shop.sql && rm /app/shop.sql` (Dockerfile line 7) runs at import"),
        "{r}"
    );
    assert!(leftovers("shop-db", &state).is_empty());

    let ws = out.join("shop-db/workspace");
    let db = std::fs::read(ws.join("shop.db")).unwrap();
    assert!(db.starts_with(b"SQLite format 3\0"), "not a database");
    assert!(!ws.join("shop.sql").exists(), "the step removed it");
    // The steps ran in order: the count was taken after notes.txt was copied in.
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.count")).unwrap(),
        "2\n"
    );
    let notes = std::fs::read_to_string(ws.join("notes.txt")).unwrap();
    assert!(
        notes.contains("/workspace/shop.db") && !notes.contains("/app"),
        "{notes}"
    );
    assert_eq!(
        std::fs::read_link(ws.join("current.db")).unwrap(),
        Path::new("shop.db")
    );
    let t = nab_harness::task::load_task(&out.join("shop-db")).unwrap_or_else(|e| panic!("{e:?}"));
    let env = t.spec.environment.clone().expect("an environment");
    assert_eq!(env.apt, ["sqlite3"]);
    assert!(env.setup.is_empty(), "{:?}", env.setup);

    let run_id = common::unique("import-build-validate");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["validate", "--run-id", &run_id, "--tasks"])
        .arg(&out)
        .arg("--out")
        .arg(root.path().join("runs"))
        .arg("shop-db")
        .env("NAB_STATE_DIR", &state)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("shop-db"))
        .unwrap_or_default();
    assert!(line.contains("pass") && line.ends_with("ok"), "{stdout}");
    assert!(stdout.contains("all tasks valid"), "{stdout}");
}

/// The shop-db fixture with `steps` as its Dockerfile's working-directory steps, as
/// `<src>/<id>`.
fn hostile(src: &Path, id: &str, steps: &str) {
    common::copy_dir(&fixture(), &src.join(id));
    common::write(
        &src.join(id).join("environment/Dockerfile"),
        &format!("FROM debian:bookworm-slim\nWORKDIR /app\nCOPY shop.sql /app/\n{steps}\n"),
    );
}

#[test]
fn hostile_working_directory_steps_are_refused_naming_the_step_and_leave_nothing() {
    let root = common::agent_root();
    let (src, out, state) = (
        root.path().join("src"),
        root.path().join("tasks"),
        root.path().join("state"),
    );
    let tag = format!("{:08x}", rand::random::<u32>());
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "write-outside",
            "RUN touch /app/ok && echo pwned > /etc/passwd",
            &[
                "`RUN touch /app/ok && echo pwned > /etc/passwd` (Dockerfile line 4) failed in the import container (exit",
            ],
        ),
        (
            "link-passwd",
            "RUN ln -s /etc/passwd /app/passwd",
            &["`passwd` is a symbolic link to /etc/passwd, outside the working directory"],
        ),
        (
            "link-huge",
            "RUN ln -s /dev/zero /app/zero",
            &["`zero` is a symbolic link to /dev/zero"],
        ),
        (
            "replace-workdir",
            "RUN rm -rf /app && ln -s /etc/passwd /app",
            &["`RUN rm -rf /app && ln -s /etc/passwd /app` (Dockerfile line 4) failed"],
        ),
        (
            "sparse-huge",
            "RUN truncate -s 8G /app/huge",
            &["holds more than 67108864 bytes of files"],
        ),
        (
            "oversized",
            "RUN head -c 100000000 /dev/zero > /app/fill",
            &["(Dockerfile line 4) failed", "filled its 64 MiB limit"],
        ),
        (
            "network",
            "RUN python3 -c \"import socket; socket.create_connection(('1.1.1.1', 53), timeout=5)\" > /app/ip",
            &["(Dockerfile line 4) failed", "Network is unreachable"],
        ),
        (
            "fifo",
            "RUN mkfifo /app/pipe",
            &["`pipe` is a fifo; a workspace holds only folders, files and links"],
        ),
        (
            "hard-link",
            "RUN touch /app/a && ln /app/a /app/b",
            &["is a hard link"],
        ),
        // The first step is a set-up command: it never runs at import (only when nab
        // builds the task's image), so it cannot hang the import.
        (
            "hang",
            "RUN sleep infinity\nRUN sleep infinity; touch /app/never",
            &[
                "`RUN sleep infinity && touch /app/never` (Dockerfile line 5) did not finish within 3 s (--step-timeout); it was stopped",
            ],
        ),
    ];
    let ids: Vec<String> = cases.iter().map(|(n, ..)| format!("{n}-{tag}")).collect();
    for ((_, steps, _), id) in cases.iter().zip(&ids) {
        hostile(&src, id, steps);
    }
    let started = Instant::now();
    let o = import(&src, &out, &state, &["--step-timeout", "3"]);
    let took = started.elapsed();
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    assert!(
        table.contains(&format!("0 converted, {} refused", cases.len())),
        "{table}\n{o:?}"
    );
    for ((name, _, whys), id) in cases.iter().zip(&ids) {
        let r = row(&table, id);
        for why in *whys {
            assert!(
                r.contains("refused") && r.contains(why),
                "{name}: wanted {why:?}\n{r}"
            );
        }
        assert!(
            leftovers(id, &state).is_empty(),
            "{name}: {:?}",
            leftovers(id, &state)
        );
    }
    // Nothing written, nothing half-written.
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(names.is_empty(), "{names:?}");
    // The hang was cut at its deadline: nothing waits on a step past it.
    assert!(took < Duration::from_secs(240), "{took:?}");
}
