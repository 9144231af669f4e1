//! `--engine` against a real second Docker engine: the test starts its own `dockerd` (own
//! data root, exec root, pid file and Unix socket, no bridge, no iptables) beside the
//! machine's, or skips saying why it could not. A run over both engines splits its trials
//! between them; stopping the second engine mid-run still records every verdict, the trial
//! in flight there retried on the first.
//!
//! The second daemon runs in a network namespace of its own (`unshare --net`): a `dockerd`
//! started with `--bridge=none` deletes the host's `docker0` at start-up, which broke every
//! later image build of the first engine ("could not find bridge docker0"). The test checks
//! that the first engine's bridge survives.

use crate::common;

use nab_protocol::{TrialRecord, TrialStatus};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `dockerd` of the test's own, stopped (SIGTERM, then SIGKILL) when dropped.
struct SecondEngine {
    child: Option<Child>,
    _dir: tempfile::TempDir,
    socket: PathBuf,
}

impl SecondEngine {
    /// `Err(why)` when this machine cannot run a second engine.
    async fn start() -> Result<SecondEngine, String> {
        let dir = tempfile::Builder::new()
            .prefix("nab-d2-")
            .tempdir_in("/tmp")
            .map_err(|e| e.to_string())?;
        let d = dir.path();
        std::fs::write(d.join("daemon.json"), "{}").map_err(|e| e.to_string())?;
        let socket = d.join("docker.sock");
        let log = std::fs::File::create(d.join("dockerd.log")).map_err(|e| e.to_string())?;
        // `unshare` execs dockerd, so the child's pid is the daemon's.
        let child = Command::new("unshare")
            .arg("--net")
            .arg("dockerd")
            // Its own configuration: the machine's daemon.json names the first engine's root.
            .arg("--config-file")
            .arg(d.join("daemon.json"))
            .arg("--data-root")
            .arg(d.join("data"))
            .arg("--exec-root")
            .arg(d.join("exec"))
            .arg("--pidfile")
            .arg(d.join("docker.pid"))
            .arg("-H")
            .arg(format!("unix://{}", socket.display()))
            .args(["--bridge=none", "--iptables=false", "--ip-masq=false"])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start `unshare --net dockerd`: {e}"))?;
        let mut engine = SecondEngine {
            child: Some(child),
            _dir: dir,
            socket,
        };
        let addr = nab_harness::env::sandbox::engine::url::EngineAddr::Unix(engine.socket.clone());
        let started = Instant::now();
        loop {
            if nab_harness::env::sandbox::connect_to(&addr).await.is_ok() {
                return Ok(engine);
            }
            if let Some(Ok(Some(status))) = engine.child.as_mut().map(|c| c.try_wait()) {
                let log = std::fs::read_to_string(engine._dir.path().join("dockerd.log"))
                    .unwrap_or_default();
                return Err(format!("dockerd exited with {status}: {}", tail(&log)));
            }
            if started.elapsed() > Duration::from_secs(60) {
                return Err("dockerd did not answer within 60 s".into());
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    fn url(&self) -> String {
        format!("unix://{}", self.socket.display())
    }

    /// Stops the engine as an operator would (SIGTERM: its API goes at once, its
    /// containers are stopped) and waits for it to exit.
    fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(40) {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for SecondEngine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether the host network namespace has the first engine's default bridge.
fn host_has_docker0() -> bool {
    Path::new("/sys/class/net/docker0").exists()
}

fn tail(s: &str) -> String {
    s.lines().rev().take(5).collect::<Vec<_>>().join(" | ")
}

fn records(out: &Path) -> Vec<TrialRecord> {
    std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn run_over(engines: &[String], out: &Path, run_id: &str, trials: &str) -> std::process::Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nab"));
    c.env("NAB_LOG", "error").args([
        "run",
        "--tasks",
        &common::repo_tasks().display().to_string(),
        "--agent",
        "oracle",
        "--trials",
        trials,
        "-j",
        "1",
        "--run-id",
        run_id,
        "--out",
        &out.display().to_string(),
    ]);
    for e in engines {
        c.args(["--engine", e]);
    }
    c.args(["c-int-overflow", "c-utf8-decoder"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nab runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trials_split_over_two_engines_and_survive_losing_one() {
    common::base_image().await;
    let had_docker0 = host_has_docker0();
    let mut second = match SecondEngine::start().await {
        Ok(e) => e,
        Err(why) => {
            eprintln!("SKIPPED: no second Docker engine on this machine: {why}");
            return;
        }
    };
    assert!(
        !had_docker0 || host_has_docker0(),
        "starting the second engine removed the host's docker0"
    );
    let engines = vec!["default".to_owned(), second.url()];
    let root = tempfile::tempdir().unwrap();

    // 1. Both engines take trials: 2 tasks × 2 trials, one at a time on each.
    let run_id = common::unique("pool");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("split");
    let o = run_over(&engines, &out, &run_id, "2")
        .wait_with_output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let recs = records(&out);
    assert_eq!(recs.len(), 4, "{stderr}");
    assert!(
        recs.iter().all(|r| r.outcome.status == TrialStatus::Passed),
        "{recs:#?}"
    );
    for e in &engines {
        assert!(
            recs.iter().any(|r| r.outcome.engine.as_deref() == Some(e)),
            "no trial ran on {e}: {recs:#?}"
        );
        assert!(
            stderr.contains(&format!("on {e}")),
            "progress names {e}: {stderr}"
        );
    }

    // 2. The second engine stops while its trial runs: every verdict is still recorded.
    let run_id = common::unique("pool-loss");
    let _sweep2 = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("loss");
    let child = run_over(&engines, &out, &run_id, "4");
    // Once a first trial ended, both engines are busy with the next ones.
    let started = Instant::now();
    while records(&out).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no trial ended"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    second.stop();
    let o = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let recs = records(&out);
    assert_eq!(recs.len(), 8, "{stderr}");
    assert!(
        recs.iter().all(|r| r.outcome.status == TrialStatus::Passed),
        "{recs:#?}\n{stderr}"
    );
    let retried: Vec<_> = recs.iter().filter(|r| r.outcome.attempts == 2).collect();
    assert!(
        !retried.is_empty()
            && retried
                .iter()
                .all(|r| r.outcome.engine.as_deref() == Some("default")),
        "the trial in flight on the stopped engine is retried on the first: {recs:#?}\n{stderr}"
    );
    assert!(
        stderr.contains(&format!("engine {} was lost", engines[1])),
        "{stderr}"
    );
    assert!(
        !had_docker0 || host_has_docker0(),
        "the second engine's stop removed the host's docker0"
    );
}
