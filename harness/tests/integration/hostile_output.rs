//! Hostile agents against the host, end to end with real Docker: what an agent leaves
//! behind cannot hang, flood or fill the machine that runs `nab`. Each case runs `nab run`
//! as a child process and checks that the run ends in time, `nab`'s peak RSS (from
//! `wait4`), how far the host's free disk dropped while it ran, that `nab clean` leaves
//! nothing of the trial, and the trial's `failure_reason`. The measured figures are
//! printed (`cargo test -- --nocapture` shows them).
//!
//! Each case has a state directory of its own (`NAB_STATE_DIR`), so "nothing of the
//! trial remains" is exact: no quota folder, no mount and no loop device under it.

use crate::common;

use common::{copy_dir, repo_tasks};
use nab_protocol::{FailureReason, TrialRecord, TrialStatus};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const TASK: &str = "py-pagination-offbyone";
/// The issue's bound on nab's memory, whatever the agent did.
const RSS_LIMIT_KIB: i64 = 512 * 1024;
/// The task's default `limits.disk_mb`.
const DEFAULT_DISK_MB: u64 = 1024;
/// Room in the host-disk bound for what is not the agent's: the trial folder (its caps),
/// and other processes on a shared machine writing while the case runs.
const DISK_SLACK: u64 = 256 << 20;

struct Hostile {
    _root: tempfile::TempDir,
    rec: Option<TrialRecord>,
    wall: Duration,
    peak_rss_kib: i64,
    /// Largest drop of the host's free disk seen while nab ran, in bytes.
    disk_drop: u64,
    exit: Option<i32>,
    stderr: String,
    out: PathBuf,
    /// agent_s + verify_s of the task, the bound's base.
    budget: Duration,
    /// From SIGINT to nab's exit, when the run was interrupted.
    after_signal: Option<Duration>,
    /// The most disk any one quota image took on the host while nab ran, in bytes.
    image_peak: u64,
    /// The task's disk quota, in bytes, and how many quotas the trial has (workspace,
    /// /nab/out).
    quota: u64,
    quotas: u64,
}

fn free_bytes(path: &Path) -> u64 {
    let s = nix::sys::statvfs::statvfs(path).unwrap();
    s.blocks_available() as u64 * s.fragment_size() as u64
}

/// Waits for `pid` and returns (exit code, peak RSS in KiB) from the kernel's accounting.
fn wait_with_rusage(pid: i32) -> (Option<i32>, i64) {
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are to live, writable locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, usage.ru_maxrss)
}

/// A one-task suite (a copy of [`TASK`]) with `edit` applied to its task.yaml.
fn suite(root: &Path, name: &str, edit: &dyn Fn(String) -> String) -> PathBuf {
    let suite = root.join(format!("suite-{name}"));
    copy_dir(&repo_tasks().join(TASK), &suite.join(TASK));
    let yaml_path = suite.join(TASK).join("task.yaml");
    let yaml = std::fs::read_to_string(&yaml_path).unwrap();
    std::fs::write(&yaml_path, edit(yaml)).unwrap();
    suite
}

/// Runs the hostile `script` as a `command:` agent (with a gateway, so it has /nab/out),
/// measuring as it goes. `interrupt` sends SIGINT once the agent has run for 3 s.
async fn run_hostile(name: &str, script: &str, agent_s: u32, interrupt: bool) -> Hostile {
    run_hostile_seeded(name, script, agent_s, interrupt, &|_| {}).await
}

/// [`run_hostile`], with `seed` adding files to the task's workspace folder first.
async fn run_hostile_seeded(
    name: &str,
    script: &str,
    agent_s: u32,
    interrupt: bool,
    seed: &dyn Fn(&Path),
) -> Hostile {
    run_hostile_with(name, script, agent_s, interrupt, seed, None).await
}

/// [`run_hostile`] for a case that must fail for `reason` within every bound.
async fn failing(name: &str, script: &str, agent_s: u32, reason: FailureReason) -> Hostile {
    let h = run_hostile(name, script, agent_s, false).await;
    h.assert_bounded_failure(reason);
    h
}

/// Bytes the host's disk holds for every quota image under `state`: (the largest one,
/// all of them).
fn image_bytes(state: &Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let Ok(dirs) = std::fs::read_dir(state.join("quota")) else {
        return (0, 0);
    };
    let sizes: Vec<u64> = dirs
        .filter_map(|d| std::fs::symlink_metadata(d.ok()?.path().join("disk.img")).ok())
        .map(|m| m.blocks() * 512)
        .collect();
    (sizes.iter().copied().max().unwrap_or(0), sizes.iter().sum())
}

/// What of a case's quotas is left on the machine: quota folders, mounts and loop
/// devices under `root`.
fn quota_leftovers(root: &Path, state: &Path) -> Vec<String> {
    let mut left: Vec<String> = std::fs::read_dir(state.join("quota"))
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.path().display().to_string()))
                .collect()
        })
        .unwrap_or_default();
    let root_s = root.display().to_string();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    left.extend(
        mounts
            .lines()
            .filter(|l| l.contains(&root_s))
            .map(|l| format!("mount: {l}")),
    );
    for dev in std::fs::read_dir("/sys/block").unwrap().flatten() {
        let backing = std::fs::read_to_string(dev.path().join("loop/backing_file")).ok();
        if let Some(b) = backing.filter(|b| b.contains(&root_s)) {
            left.push(format!("loop device {:?}: {}", dev.file_name(), b.trim()));
        }
    }
    left
}

/// [`run_hostile_seeded`], with `disk_mb` as the task's `limits.disk_mb`. The case's
/// folder (suite, state, run folder) lives as long as the returned [`Hostile`].
async fn run_hostile_with(
    name: &str,
    script: &str,
    agent_s: u32,
    interrupt: bool,
    seed: &dyn Fn(&Path),
    disk_mb: Option<u64>,
) -> Hostile {
    common::base_image().await;
    let tmp = common::agent_root();
    let root = tmp.path();
    let suite = suite(root, name, &|y| {
        let y = y.replace(
            "timeouts: {agent_s: 600, verify_s: 120}",
            &format!("timeouts: {{agent_s: {agent_s}, verify_s: 120}}"),
        );
        match disk_mb {
            Some(mb) => y.replace("pids: 256}", &format!("pids: 256, disk_mb: {mb}}}")),
            None => y,
        }
    });
    let state = root.join(format!("state-{name}"));
    seed(&suite.join(TASK).join("workspace"));
    let agent = root.join(format!("{name}.sh"));
    common::write_exec(&agent, script);
    let run_id = common::unique(name);
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.join(format!("out-{name}"));
    // Docker's volumes and the quota images may sit on different file systems: the drop
    // is the sum of both drops (counted once when they are the same).
    std::fs::create_dir_all(&state).unwrap();
    let same_fs = nix::sys::stat::stat("/var/lib/docker").unwrap().st_dev
        == nix::sys::stat::stat(&state).unwrap().st_dev;
    let free = {
        let state = state.clone();
        move || {
            free_bytes(Path::new("/var/lib/docker")) + if same_fs { 0 } else { free_bytes(&state) }
        }
    };
    let before = free();
    let lowest = Arc::new(AtomicU64::new(before));
    let image_peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (lowest, done, image_peak, state) = (
            lowest.clone(),
            done.clone(),
            image_peak.clone(),
            state.clone(),
        );
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                lowest.fetch_min(free(), Ordering::Relaxed);
                image_peak.fetch_max(image_bytes(&state).0, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--attempts", "1", "--run-id", &run_id, "--model"])
        .arg("scripted:task")
        .arg("--tasks")
        .arg(&suite)
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .env("NAB_STATE_DIR", &state)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(root.join(format!("{name}.stderr"))).unwrap())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let mut signalled = None;
    if interrupt {
        while common::labelled(&format!("nab.run={run_id}")).0.is_empty() {
            assert!(started.elapsed() < Duration::from_secs(120), "no container");
            std::thread::sleep(Duration::from_millis(200));
        }
        std::thread::sleep(Duration::from_secs(3));
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGINT,
        )
        .unwrap();
        signalled = Some(Instant::now());
    }
    let (exit, peak_rss_kib) = wait_with_rusage(pid);
    let after_signal = signalled.map(|t| t.elapsed());
    let wall = started.elapsed();
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    std::mem::forget(child);
    let disk_drop = before.saturating_sub(lowest.load(Ordering::Relaxed));
    let stderr = std::fs::read_to_string(root.join(format!("{name}.stderr"))).unwrap();
    let rec = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .ok()
        .and_then(|r| r.records.into_iter().next());

    // `nab clean` for the run, then nothing of the trial may remain.
    let cleaned = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["clean", "--run", &run_id])
        .env("NAB_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(cleaned.status.success(), "{cleaned:?}");
    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![]),
        "{name}: leftovers after nab clean"
    );
    let left = quota_leftovers(root, &state);
    assert!(left.is_empty(), "{name}: left after nab clean: {left:#?}");
    let h = Hostile {
        _root: tmp,
        rec,
        wall,
        peak_rss_kib,
        disk_drop,
        exit,
        stderr,
        out,
        budget: Duration::from_secs(u64::from(agent_s) + 120),
        after_signal,
        image_peak: image_peak.load(Ordering::Relaxed),
        quota: disk_mb.unwrap_or(DEFAULT_DISK_MB) << 20,
        quotas: 2,
    };
    eprintln!(
        "[hostile {name}] wall {:.1} s (after SIGINT: {:?}), nab peak RSS {} MiB, host free disk dropped {} MiB (largest quota image {} MiB), exit {:?}",
        h.wall.as_secs_f64(),
        h.after_signal,
        h.peak_rss_kib / 1024,
        h.disk_drop / (1024 * 1024),
        h.image_peak / (1024 * 1024),
        h.exit
    );
    h
}

impl Hostile {
    /// The bounds every case shares: in time, under the memory limit, failed for `reason`.
    fn assert_bounded_failure(&self, reason: FailureReason) -> &TrialRecord {
        assert!(
            self.wall < self.budget + Duration::from_secs(30),
            "took {:?}\n{}",
            self.wall,
            self.stderr
        );
        assert!(
            self.peak_rss_kib < RSS_LIMIT_KIB,
            "peak RSS {} KiB",
            self.peak_rss_kib
        );
        self.assert_disk_bounded();
        let rec = self
            .rec
            .as_ref()
            .unwrap_or_else(|| panic!("no trial record; exit {:?}\n{}", self.exit, self.stderr));
        assert_eq!(
            rec.outcome.status,
            TrialStatus::Failed,
            "{rec:?}\n{}",
            self.stderr
        );
        assert_eq!(rec.outcome.failure_reason, Some(reason), "{rec:?}");
        assert_eq!(rec.outcome.error, None);
        rec
    }

    /// No quota image took more than the quota, and the host's free disk dropped by no
    /// more than the trial's quotas (and [`DISK_SLACK`]).
    fn assert_disk_bounded(&self) {
        assert!(
            self.image_peak <= self.quota,
            "a quota image took {} bytes, over the quota of {}",
            self.image_peak,
            self.quota
        );
        assert!(
            self.disk_drop <= self.quota * self.quotas + DISK_SLACK,
            "the host's free disk dropped by {} bytes (quota {} x {})",
            self.disk_drop,
            self.quota,
            self.quotas
        );
    }

    fn patch(&self) -> Vec<u8> {
        std::fs::read(self.out.join("trials").join(TASK).join("0/diff.patch")).unwrap_or_default()
    }

    /// The agent's log holds `needle`.
    fn assert_agent_log_has(&self, needle: &str) {
        let log = self.agent_log();
        assert!(
            log.contains(needle),
            "{needle:?} not in the agent log:\n{log}"
        );
    }

    fn agent_log(&self) -> String {
        std::fs::read_to_string(self.out.join("trials").join(TASK).join("0/agent.log"))
            .unwrap_or_default()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fifo_left_as_events_jsonl_is_refused_and_the_trial_fails() {
    let h = failing(
        "fifo",
        "#!/bin/sh\nmkfifo /nab/out/events.jsonl\n",
        60,
        FailureReason::BadAgentOutput,
    )
    .await;
    h.assert_agent_log_has("events.jsonl: is a FIFO");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sparse_terabyte_events_jsonl_is_refused_by_its_size_without_reading_it() {
    let h = failing(
        "sparse-events",
        "#!/bin/sh\ntruncate -s 1T /nab/out/events.jsonl\n",
        60,
        FailureReason::BadAgentOutput,
    )
    .await;
    h.assert_agent_log_has("events.jsonl: is 1099511627776 bytes");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_one_gib_sparse_file_in_the_workspace_fails_the_trial_as_too_large() {
    let h = failing(
        "sparse-ws",
        "#!/bin/sh\ntruncate -s 1G /workspace/sparse.bin\n",
        60,
        FailureReason::WorkspaceTooLarge,
    )
    .await;
    h.assert_agent_log_has("the workspace is larger than");
}

/// What the agent leaves in both cancellation cases: FIFOs where the harness reads, a
/// reader blocked on one of them, and a process that never ends.
const BLOCKER: &str = r#"#!/bin/sh
mkfifo /nab/out/events.jsonl /workspace/pipe
cat /workspace/pipe > /dev/null &
exec sleep 100000
"#;

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_ends_a_run_within_10_s_whatever_the_agent_left_behind() {
    let h = run_hostile("sigint", BLOCKER, 600, true).await;
    let after = h.after_signal.unwrap();
    assert!(
        after < Duration::from_secs(10),
        "took {after:?}\n{}",
        h.stderr
    );
    assert!(
        h.peak_rss_kib < RSS_LIMIT_KIB,
        "peak RSS {} KiB",
        h.peak_rss_kib
    );
    assert_eq!(h.exit, Some(130), "{}", h.stderr);
    // An interrupted trial is not recorded (a resumed run does it again).
    assert!(h.rec.is_none(), "{:?}", h.rec);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_agent_deadline_ends_a_trial_blocked_on_fifos_and_it_fails() {
    let h = failing("deadline", BLOCKER, 5, FailureReason::BadAgentOutput).await;
    let rec = h.rec.as_ref().unwrap();
    assert_eq!(
        rec.outcome.exit_reason,
        Some(nab_protocol::SandboxExit::Timeout)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_quadratic_diff_is_summarised_as_rewritten_at_its_deadline() {
    let h = run_hostile_seeded(
        "quadratic",
        "#!/bin/sh\nseq 1 60000 | sed 's/^/new line /' > /workspace/q.txt\n",
        60,
        false,
        &|ws| {
            let old: String = (1..=60_000).map(|i| format!("old line {i}\n")).collect();
            std::fs::write(ws.join("q.txt"), old).unwrap();
        },
    )
    .await;
    // The bug is not fixed, so the tests fail; the diff did not hang the run.
    h.assert_bounded_failure(FailureReason::TestsFailed);
    let patch = String::from_utf8_lossy(&h.patch()).into_owned();
    assert!(
        patch.contains("# rewritten: 60000 lines -> 60000 lines"),
        "{}",
        &patch[..patch.len().min(2000)]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_300_mb_change_gives_a_capped_patch_that_lists_the_rest() {
    let h = failing(
        "bloat",
        "#!/bin/bash\nmkdir -p /workspace/gen\nfor i in $(seq -w 1 300); do yes \"generated line $i\" | head -c 1000000 > /workspace/gen/f$i.txt; done\n",
        120,
        FailureReason::TestsFailed,
    )
    .await;
    let patch = String::from_utf8_lossy(&h.patch()).into_owned();
    let (shown, rest) = patch
        .split_once("# nab: diff.patch stops here")
        .expect("a cap marker");
    assert!(shown.len() <= 4 * 1024 * 1024, "{}", shown.len());
    assert!(
        rest.contains("its cap of 4194304 bytes was reached"),
        "{}",
        &rest[..200]
    );
    assert!(rest.contains("#   b/gen/f300.txt: before: absent; after: 1000000 bytes, sha256 "));
    let listed = rest.lines().filter(|l| l.starts_with("#   b/gen/")).count();
    assert_eq!(listed + shown.matches("diff --git a/gen/").count(), 300);
}

#[tokio::test(flavor = "multi_thread")]
async fn colliding_and_newline_names_are_all_in_the_patch_and_forge_nothing() {
    let h = failing(
        "names",
        "#!/bin/bash\ncd /workspace\necho one > $'\\xff'\necho two > $'\\xef\\xbf\\xbd'\necho three > $'x\\ndiff --git forged forged'\n",
        60,
        FailureReason::TestsFailed,
    )
    .await;
    let patch = String::from_utf8(h.patch()).expect("the patch is UTF-8: names are quoted");
    assert!(
        patch.contains("diff --git \"a/\\377\" \"b/\\377\"\n"),
        "{patch}"
    );
    assert!(
        patch.contains("diff --git \"a/\\357\\277\\275\" "),
        "{patch}"
    );
    assert!(
        patch.contains("\"b/x\\ndiff --git forged forged\""),
        "{patch}"
    );
    for line in ["+one", "+two", "+three"] {
        assert!(patch.lines().any(|l| l == line), "{line}: {patch}");
    }
    assert!(
        !patch.lines().any(|l| l.starts_with("diff --git forged")),
        "{patch}"
    );
}

/// Writes until the disk says no, then checks it did (so the quota, not a size, stopped it).
fn filler(dir: &str) -> String {
    format!(
        "#!/bin/sh\nmkdir -p {dir}/fill\nif dd if=/dev/zero of={dir}/fill/zeros bs=1M count=3072 2>/tmp/dd.err; then echo 'wrote it all'; else cat /tmp/dd.err; fi\n"
    )
}

/// An agent that fills `dir` (a 256 MiB quota) until the disk says no: the trial fails on
/// the quota, the agent log shows the disk's refusal and nab's note (`what` filled its disk
/// quota), and the quota image grew to near the quota (the bound was reached, not avoided).
async fn assert_filling_hits_the_quota(name: &str, dir: &str, what: &str) {
    let h = run_hostile_with(name, &filler(dir), 120, false, &|_| {}, Some(256)).await;
    h.assert_bounded_failure(FailureReason::DiskQuota);
    h.assert_agent_log_has("No space left on device");
    h.assert_agent_log_has(&format!("[nab: {what} filled its disk quota of 256 MiB"));
    assert!(h.image_peak > 200 << 20, "{}", h.image_peak);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_filling_its_workspace_hits_the_quota_and_fails() {
    assert_filling_hits_the_quota("fill-ws", "/workspace", "the workspace").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_filling_nab_out_hits_the_quota_and_fails() {
    assert_filling_hits_the_quota("fill-out", "/nab/out", "/nab/out").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_folders_left_in_the_workspace_and_nab_out_are_cleaned_up() {
    let h = failing(
        "read-only",
        "#!/bin/sh\nfor d in /workspace/locked /nab/out/locked; do mkdir -p $d/deep && echo x > $d/deep/f && chmod -R a-w $d; done\nls -ld /workspace/locked/deep\n",
        60,
        FailureReason::TestsFailed,
    )
    .await;
    h.assert_agent_log_has("dr-xr-xr-x");
}

/// 32 connections at once, each sending a 64 MiB body: half announce it
/// (`Content-Length`), half send it chunked; the bodies are `[` (amplifying, were they
/// parsed). Each connection prints the status it got, or what broke.
const REQUEST_FLOOD: &str = r#"#!/usr/bin/python3
import socket, threading
BODY = 64 << 20
def one(i):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect("/nab/llm.sock")
        if i % 2:
            head = "Content-Length: %d\r\n" % BODY
        else:
            head = "Transfer-Encoding: chunked\r\n"
        s.sendall(("POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n" + head + "\r\n").encode())
        piece = b"[" * (1 << 20)
        for _ in range(BODY >> 20):
            s.sendall(piece if i % 2 else b"100000\r\n" + piece + b"\r\n")
        print(i, s.recv(100).split(b"\r\n")[0].decode(), flush=True)
    except Exception as e:
        print(i, "broke:", type(e).__name__, flush=True)
ts = [threading.Thread(target=one, args=(i,)) for i in range(32)]
for t in ts: t.start()
for t in ts: t.join()
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_64_mib_request_flood_over_many_connections_is_refused_within_bounds() {
    let h = failing("flood", REQUEST_FLOOD, 120, FailureReason::TestsFailed).await;
    let rec = h.rec.as_ref().unwrap();
    let log = h.agent_log();
    // Every request was refused (413 before or while its body came; the agent may see only
    // the closed connection), and each one is on the record.
    let seen = log.lines().filter(|l| l.contains("HTTP/1.1 413")).count();
    assert_eq!(
        rec.behaviour.refused_requests,
        Some(32),
        "{seen} refusals seen by the agent"
    );
    // Every connection ended (refused, or cut off), none was served a model answer.
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("HTTP/1.1 413") || l.contains("broke:"))
            .count(),
        32,
        "{log}"
    );
    let transcript = std::fs::metadata(h.out.join("trials").join(TASK).join("0/transcript.jsonl"))
        .map_or(0, |m| m.len());
    // Refused requests are one-line summaries, never copies of the body.
    assert!(transcript < 64 * 1024, "{transcript} bytes");
}

/// 30 requests of 3 MiB each (under the 4 MiB line cap, so each would be written whole):
/// 90 MiB of transcript without the file cap.
const TRANSCRIPT_FLOOD: &str = r#"#!/usr/bin/python3
import socket, http.client, json
class Unix(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect("/nab/llm.sock")
body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "a" * (3 << 20)}]})
codes = {}
for i in range(30):
    c = Unix("gw", timeout=60)
    c.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    codes[r.status] = codes.get(r.status, 0) + 1
    c.close()
print("statuses", sorted(codes.items()), flush=True)
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_transcript_flood_is_capped_on_disk_and_in_memory() {
    let h = failing(
        "transcript-flood",
        TRANSCRIPT_FLOOD,
        300,
        FailureReason::TestsFailed,
    )
    .await;
    h.assert_agent_log_has("statuses");
    let transcript = std::fs::metadata(h.out.join("trials").join(TASK).join("0/transcript.jsonl"))
        .unwrap()
        .len();
    eprintln!("[hostile transcript-flood] transcript.jsonl {transcript} bytes");
    // The file cap (64 MiB), its reserve for short lines (4 MiB) and the line that crossed it.
    assert!(transcript <= (64 + 4 + 4) << 20, "{transcript} bytes");
    // The cap was reached: the flood was not too small to test it.
    assert!(transcript >= 60 << 20, "{transcript} bytes");
}
