//! Helpers shared by the Docker-backed tests: one base image for all of them, temporary
//! suites, and label-based checks for leftovers.
#![allow(dead_code)]

pub mod podman;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

static IMAGE: Mutex<Option<String>> = Mutex::new(None);

/// The base image tag, built once (if missing) and shared by every test.
pub async fn base_image() -> String {
    // Hold the lock across the build so parallel tests in one binary do not build twice.
    let mut guard = IMAGE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = guard.as_ref() {
        return t.clone();
    }
    let tag = tokio::task::block_in_place(|| {
        tokio::runtime::Handle::current().block_on(async {
            let docker = nab_harness::env::sandbox::connect().await.expect("docker");
            let recipe = nab_harness::env::image::Recipe::default();
            let pb = indicatif::ProgressBar::hidden();
            nab_harness::env::image::ensure_base_image(&docker, &recipe, false, &pb)
                .await
                .expect("base image")
                .tag
        })
    });
    *guard = Some(tag.clone());
    tag
}

pub fn repo_tasks() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tasks")
}

pub fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from).follow_links(false) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else if e.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

pub fn write_exec(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    write(path, text);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Names of containers and volumes carrying `label` (via the docker CLI, independent of
/// the code under test).
pub fn labelled(label: &str) -> (Vec<String>, Vec<String>) {
    labelled_with(&["docker"], label)
}

/// [`labelled`] with another engine's CLI (`podman` and its options).
pub fn labelled_with(cli: &[&str], label: &str) -> (Vec<String>, Vec<String>) {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(cli[0])
            .args(&cli[1..])
            .args(args)
            .output()
            .expect("engine CLI");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
    };
    let filter = format!("label={label}");
    (
        run(&["ps", "-aq", "--filter", &filter]),
        run(&["volume", "ls", "-q", "--filter", &filter]),
    )
}

pub fn unique(prefix: &str) -> String {
    format!(
        "{prefix}-{}-{:08x}",
        std::process::id(),
        rand::random::<u32>()
    )
}

/// Removes whatever carries `nab.run=<id>` when dropped, so a failing test (which panics
/// before its own cleanup) leaves nothing behind for the next one.
pub struct SweepOnDrop(pub String);

impl Drop for SweepOnDrop {
    fn drop(&mut self) {
        let (containers, volumes) = labelled(&format!("nab.run={}", self.0));
        if !containers.is_empty() {
            let _ = std::process::Command::new("docker")
                .args(["rm", "-f", "-v"])
                .args(&containers)
                .output();
        }
        if !volumes.is_empty() {
            let _ = std::process::Command::new("docker")
                .args(["volume", "rm", "-f"])
                .args(&volumes)
                .output();
        }
    }
}

/// A finished `nab selftest` run on some of its cases (ids or classes), with its run folder.
/// The built-in corpus (harness/selftest/) holds the hostile agents; tests that plant an
/// attack run its case here and check the details in its logs.
pub struct Selftest {
    _root: tempfile::TempDir,
    pub out: PathBuf,
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
    _sweep: SweepOnDrop,
}

impl Selftest {
    pub fn run(cases: &[&str]) -> Selftest {
        let root = tempfile::tempdir().unwrap();
        let run_id = unique("selftest");
        let sweep = SweepOnDrop(run_id.clone());
        let out = root.path().join("out");
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_nab"))
            .args(["selftest", "-j", "2", "--run-id", &run_id, "--out"])
            .arg(&out)
            .args(cases)
            .output()
            .unwrap();
        let st = Selftest {
            _root: root,
            out,
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            success: o.status.success(),
            _sweep: sweep,
        };
        assert_eq!(
            labelled(&format!("nab.run={run_id}")),
            (vec![], vec![]),
            "leftovers after nab selftest"
        );
        st
    }

    /// The table's row for case `id`.
    pub fn row(&self, id: &str) -> &str {
        self.stdout
            .lines()
            .take_while(|l| !l.is_empty())
            .find(|r| r.split_whitespace().nth(1) == Some(id))
            .unwrap_or_else(|| panic!("no row for {id}:\n{}\n{}", self.stdout, self.stderr))
    }

    /// Every case in `ids` has a row that says `caught`, and the run exited 0.
    pub fn assert_all_caught(&self, ids: &[&str]) {
        for id in ids {
            assert!(
                self.row(id).ends_with("  caught"),
                "{id} not caught:\n{}",
                self.stdout
            );
        }
        assert!(self.success, "{}\n{}", self.stdout, self.stderr);
    }

    /// A file of case `case`'s trial on task `task` (agent.log, verify.log, ...).
    pub fn log(&self, task: &str, case: &str, file: &str) -> String {
        std::fs::read_to_string(self.out.join("trials").join(task).join(case).join(file))
            .unwrap_or_default()
    }

    /// The trial record of case `case` (its agent script is `<case>.sh`).
    pub fn record(&self, case: &str) -> nab_protocol::TrialRecord {
        let suffix = format!("/{case}.sh");
        nab_protocol::read_jsonl::<nab_protocol::TrialRecord>(
            &self.out.join(nab_protocol::RESULTS_FILE),
        )
        .unwrap()
        .records
        .into_iter()
        .find(|r| r.agent.ends_with(&suffix))
        .unwrap_or_else(|| panic!("no record for {case}:\n{}", self.stdout))
    }
}

/// The base image and this source's nab-agent, both ready for a run.
pub async fn nab_agent_ready() {
    base_image().await;
    ensure_nab_agent();
}

/// nab mounts the nab-agent found next to it: build it first (once per test process) so a
/// run uses this source's agent.
pub fn ensure_nab_agent() {
    static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let st = std::process::Command::new(cargo)
            .args(["build", "-p", "nab-agent"])
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
            .status()
            .expect("cargo");
        assert!(st.success(), "cargo build -p nab-agent failed");
    });
}

/// A temporary folder that the sandbox user (uid 1000) can enter, for suites and agent
/// scripts a `command:` agent or a task container must reach.
pub fn agent_root() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    root
}

/// `<root>/suite` with one task, `py-usd` (a copy of py-pagination-offbyone with
/// `budgets: {usd: <usd>}`): the suite's folder and the task.yaml without the budget.
pub fn usd_suite(root: &Path, usd: &str) -> (PathBuf, String) {
    let suite = root.join("suite");
    let task = suite.join("py-usd");
    copy_dir(&repo_tasks().join("py-pagination-offbyone"), &task);
    let yaml = std::fs::read_to_string(task.join("task.yaml"))
        .unwrap()
        .replace("id: py-pagination-offbyone", "id: py-usd");
    write(
        &task.join("task.yaml"),
        &format!("{yaml}budgets: {{usd: {usd}}}\n"),
    );
    (suite, yaml)
}

/// A finished command's status and both streams, for assertion messages.
pub fn show(o: &std::process::Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A run id, the guard that sweeps its leftovers, and `<root>/out` for its run folder.
pub fn run_slot(root: &Path, prefix: &str) -> (String, SweepOnDrop, PathBuf) {
    let run_id = unique(prefix);
    let sweep = SweepOnDrop(run_id.clone());
    (run_id, sweep, root.join("out"))
}

/// `<root>/prices.yaml` holding `yaml`.
pub fn prices(root: &Path, yaml: &str) -> PathBuf {
    let path = root.join("prices.yaml");
    write(&path, yaml);
    path
}

/// A run on `docker` alone (2 trials at once, one attempt each), without a progress bar.
pub fn quiet_run_config(
    docker: nab_harness::env::sandbox::Engine,
    image: String,
    out: PathBuf,
    run_id: &str,
) -> nab_harness::run::RunConfig {
    use std::sync::Arc;
    let backend = Arc::new(nab_harness::env::sandbox::DockerBackend::new(docker));
    let engines = nab_harness::run::EnginePool::single(backend, 2);
    let mut cfg =
        nab_harness::run::RunConfig::on_engines(engines, image, out, run_id.to_owned(), 1);
    cfg.progress = Arc::new(nab_harness::run::progress::Silent);
    cfg
}

/// `nab run --run-id <run_id> --attempts <attempts>`, for the test to add the rest.
pub fn nab_run(run_id: &str, attempts: u32) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_nab"));
    cmd.args([
        "run",
        "--run-id",
        run_id,
        "--attempts",
        &attempts.to_string(),
    ]);
    cmd
}

/// Python for the `command:` agents of these tests: `post(body)` sends one chat request to
/// the gateway's socket and returns the raw HTTP answer (bytes). A macro, not a const, so
/// `concat!` can put it into each script's source.
#[macro_export]
macro_rules! gateway_post_py {
    () => {
        r#"import json, socket
def post(body):
    s = socket.socket(socket.AF_UNIX)
    s.connect("/nab/llm.sock")
    s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n"
              + b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    resp = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        resp += chunk
    s.close()
    return resp
"#
    };
}

/// The task.yaml of a small test task: one verify step running `verify_argv` (a YAML flow
/// list), the oracle `solution/solve.sh`, and `extra` (more top-level YAML) appended.
pub fn task_yaml(id: &str, category: &str, verify_argv: &str, extra: &str) -> String {
    format!(
        r#"id: {id}
category: {category}
language: shell
difficulty: easy
timeouts: {{agent_s: 300, verify_s: 60}}
limits: {{cpus: 1.0, memory_mb: 512, pids: 128}}
verify:
  - argv: {verify_argv}
    timeout_s: 30
solution: ["bash", "/nab/solution/solve.sh"]
{extra}"#
    )
}
