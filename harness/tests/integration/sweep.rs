//! `nab sweep` end to end against real Docker: nab-agent with two models (the scripted
//! model, and a mock HTTP provider that answers 429 with Retry-After half the time) on three
//! tasks × two trials finishes balanced, with no error from rate limiting and the other
//! model never held back; retries that run out are an `error` naming the provider; a
//! stopped sweep resumes, and refuses a sweep file that changed; a bad sweep file is
//! refused before anything runs.

use crate::common;

use common::show;

use nab_protocol::{ErrorKind, SweepIndex, TrialRecord, TrialStatus};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const TASKS: [&str; 3] = [
    "term-log-report",
    "py-pagination-offbyone",
    "sh-csv-quoting",
];

/// A model that gives its final answer at once (the task then fails its tests: `failed`).
fn final_answer() -> Value {
    serde_json::json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Done."}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}
    })
}

/// Answers 429 (Retry-After 0.5 s) to every other request, the final answer to the rest.
struct HalfRateLimited(AtomicUsize);

impl Respond for HalfRateLimited {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        if self.0.fetch_add(1, Ordering::SeqCst).is_multiple_of(2) {
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0.5")
                .set_body_string("rate limited")
        } else {
            ResponseTemplate::new(200).set_body_json(final_answer())
        }
    }
}

fn nab(args: &[&str], file: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nab"));
    cmd.arg("sweep")
        .arg(file)
        .arg("--out")
        .arg(out)
        .args(args)
        .env("NAB_API_KEY", "unused-by-the-mock");
    cmd
}

/// `o` is a refusal (exit 2, nothing run): its stderr.
fn refusal(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "{}", show(o));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What the tests that run nab-agent against a mock provider share: the base image and
/// nab-agent ready, the provider, a temporary folder, and a sweep id whose run folders
/// `<id>-01` .. `<id>-<runs>` leave nothing labelled behind.
struct Mocked {
    server: MockServer,
    root: tempfile::TempDir,
    id: String,
    _clean: Vec<common::SweepOnDrop>,
}

async fn mocked(answer: impl Respond + 'static, id: &str, runs: usize) -> Mocked {
    common::nab_agent_ready().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(answer)
        .mount(&server)
        .await;
    let id = common::unique(id);
    let _clean = (1..=runs)
        .map(|n| common::SweepOnDrop(format!("{id}-{n:02}")))
        .collect();
    Mocked {
        server,
        root: tempfile::tempdir().unwrap(),
        id,
        _clean,
    }
}

/// The sweep folder's `sweep.json`, read as the leaderboard reads it.
fn sweep_json(out: &Path) -> SweepIndex {
    SweepIndex::read(out).unwrap().expect("a sweep.json")
}

fn run_dirs(out: &Path) -> Vec<PathBuf> {
    sweep_json(out)
        .runs
        .iter()
        .map(|r| out.join(&r.dir))
        .collect()
}

fn records(run: &Path) -> Vec<TrialRecord> {
    nab_protocol::read_jsonl::<TrialRecord>(&run.join(nab_protocol::RESULTS_FILE))
        .map(|r| r.records)
        .unwrap_or_default()
}

fn transcripts(run: &Path) -> Vec<nab_protocol::TranscriptLine> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(run.join("trials")) {
        let e = e.unwrap();
        if e.file_name() == nab_protocol::TRANSCRIPT_FILE {
            out.extend(nab_protocol::read_jsonl(e.path()).unwrap().records);
        }
    }
    out
}

fn pairs(recs: &[TrialRecord]) -> BTreeSet<(String, u32)> {
    recs.iter().map(|r| (r.task_id.clone(), r.trial)).collect()
}

fn all_pairs(tasks: &[&str], trials: u32) -> BTreeSet<(String, u32)> {
    tasks
        .iter()
        .flat_map(|t| (0..trials).map(move |i| (t.to_string(), i)))
        .collect()
}

fn write_sweep(dir: &Path, body: &str) -> PathBuf {
    let f = dir.join("sweep.yaml");
    std::fs::write(&f, body).unwrap();
    f
}

fn tasks_yaml(ids: &[&str]) -> String {
    format!(
        "tasks: {{dir: {}, ids: [{}]}}\n",
        common::repo_tasks().display(),
        ids.join(", ")
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn two_models_one_rate_limited_finish_balanced_and_the_other_is_not_held_back() {
    let Mocked {
        server, root, id, ..
    } = &mocked(HalfRateLimited(AtomicUsize::new(0)), "sweep", 2).await;
    let limited = format!("openai[stream=off]:limited@{}/v1", server.uri());
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: [scripted:task, '{limited}']\n{}trials: 2\njobs: 2\nattempts: 1\nproviders:\n  'openai[': {{concurrency: 1, max_retries: 4}}\naliases: {{'{limited}': limited}}\n",
            tasks_yaml(&TASKS)
        ),
    );
    let out = root.path().join("out");
    let o = nab(&["--id", id], &file, &out).output().unwrap();
    assert!(o.status.success(), "{}", show(&o));

    let index = sweep_json(&out);
    let runs = run_dirs(&out);
    assert_eq!(runs.len(), 2, "{index:?}");
    assert_eq!(index.runs[0].model.as_deref(), Some("scripted:task"));
    assert_eq!(index.runs[1].model.as_deref(), Some(limited.as_str()));
    for run in &runs {
        let recs = records(run);
        assert_eq!(recs.len(), 6, "{}: {recs:?}", run.display());
        assert_eq!(
            pairs(&recs),
            all_pairs(&TASKS, 2),
            "every (task, trial) once"
        );
        for r in &recs {
            assert_ne!(r.outcome.status, TrialStatus::Error, "{r:?}");
        }
        // An ordinary run folder: run.json and report.html as `nab run` writes them.
        assert!(run.join(nab_protocol::RUN_META_FILE).is_file());
        assert!(
            run.join(nab_protocol::REPORT_FILE).is_file(),
            "{}",
            show(&o)
        );
    }
    let scripted = records(&runs[0]);
    assert!(
        scripted
            .iter()
            .all(|r| r.outcome.status == TrialStatus::Passed),
        "{scripted:?}"
    );
    // The limited model was slowed down by its 429s, and retried past them ...
    let pool = |name: &str| {
        index
            .providers
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("{name} in {index:?}"))
    };
    let slow = pool("openai[");
    assert!(slow.slowed >= 6, "{slow:?}");
    assert!(slow.waited_ms >= 1000, "{slow:?}");
    assert!(transcripts(&runs[1]).iter().any(|l| l.retries > 0));
    // ... and the scripted model was never held back or retried.
    let fast = pool("scripted:task");
    assert_eq!((fast.slowed, fast.waited_ms), (0, 0), "{fast:?}");
    let lines = transcripts(&runs[0]);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l.retries == 0));

    // The sweep ended with its leaderboard, written into the sweep folder and named last.
    let stdout = String::from_utf8_lossy(&o.stdout);
    let html = out.join("leaderboard.html");
    assert!(
        html.is_file() && out.join("leaderboard.json").is_file(),
        "{}",
        show(&o)
    );
    assert!(
        stdout
            .trim_end()
            .ends_with(&format!("leaderboard {}", html.display())),
        "{stdout}"
    );
    // The alias names the limited model's row; the other keeps its spec.
    let board: Value =
        serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    let mut labels: Vec<&str> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    labels.sort();
    assert_eq!(labels, ["nab-agent · limited", "nab-agent · scripted:task"]);
    // The sweep folder is what `nab leaderboard` reads.
    let lb = Command::new(env!("CARGO_BIN_EXE_nab"))
        .arg("leaderboard")
        .arg(&out)
        .arg("--out")
        .arg(root.path().join("lb"))
        .output()
        .unwrap();
    assert!(lb.status.success(), "{}", show(&lb));
}

#[tokio::test(flavor = "multi_thread")]
async fn retries_that_run_out_are_an_error_naming_the_provider() {
    let always_limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "0.2")
        .set_body_string("rate limited");
    let Mocked {
        server, root, id, ..
    } = &mocked(always_limited, "sweep-429", 1).await;
    let spec = format!("openai[stream=off]:always-limited@{}/v1", server.uri());
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: ['{spec}']\n{}attempts: 1\nproviders: {{'openai': {{max_retries: 1}}}}\n",
            tasks_yaml(&["term-log-report"])
        ),
    );
    let out = root.path().join("out");
    let o = nab(&["--id", id], &file, &out).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "an error is a failure: {}",
        show(&o)
    );
    let recs = records(&run_dirs(&out)[0]);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    let r = &recs[0];
    assert_eq!(r.outcome.status, TrialStatus::Error, "{r:?}");
    assert_eq!(r.outcome.error_kind, Some(ErrorKind::Provider), "{r:?}");
    assert_eq!(
        r.model.as_deref(),
        Some(spec.as_str()),
        "an error names its model"
    );
    assert!(
        show(&o).contains(&format!("term-log-report nab-agent {spec} Error")),
        "the progress line names the model: {}",
        show(&o)
    );
    assert!(
        r.outcome.failure_reason.is_none(),
        "not the agent's failure: {r:?}"
    );
    let error = r.outcome.error.as_deref().unwrap();
    assert!(
        error.contains("always-limited") && error.contains("provider_http_error"),
        "the error names the provider: {error}"
    );
    // max_retries bounds the patience: 1 + 1 requests.
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_sweep_resumes_and_refuses_a_changed_sweep_file() {
    let answer = ResponseTemplate::new(200).set_body_json(final_answer());
    let Mocked {
        server, root, id, ..
    } = &mocked(answer, "sweep-resume", 2).await;
    let quick = format!("openai[stream=off]:quick@{}/v1", server.uri());
    let tasks = ["term-log-report", "sh-csv-quoting"];
    let text = format!(
        "agents: [nab-agent]\nmodels: [scripted:task, '{quick}']\n{}jobs: 1\nattempts: 1\n",
        tasks_yaml(&tasks)
    );
    let file = write_sweep(root.path(), &text);
    let out = root.path().join("out");

    // Stop it (Ctrl-C) as soon as the first trial is recorded.
    let mut child = nab(&["--id", id], &file, &out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    let recorded = |out: &Path| -> usize {
        if !out.join("sweep.json").is_file() {
            return 0;
        }
        run_dirs(out).iter().map(|r| records(r).len()).sum()
    };
    while recorded(&out) == 0 {
        assert!(std::time::Instant::now() < deadline, "no trial recorded");
        if let Some(st) = child.try_wait().unwrap() {
            panic!("nab sweep ended before it was stopped: {st:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(130));
    let before: Vec<Vec<TrialRecord>> = run_dirs(&out).iter().map(|r| records(r)).collect();
    let kept: usize = before.iter().map(Vec::len).sum();
    assert!((1..4).contains(&kept), "{before:?}");

    // A changed sweep file is refused, before anything runs.
    std::fs::write(&file, format!("{text}trials: 2\n")).unwrap();
    let o = nab(&["--resume"], &file, &out).output().unwrap();
    let err = refusal(&o);
    assert!(
        err.contains("sweep.yaml changed since the sweep") && err.contains("sha256:"),
        "{err}"
    );
    let after: usize = run_dirs(&out).iter().map(|r| records(r).len()).sum();
    assert_eq!(after, kept);

    // The same file: the sweep finishes, keeping what it had.
    std::fs::write(&file, &text).unwrap();
    let o = nab(&["--resume"], &file, &out).output().unwrap();
    assert!(o.status.success(), "{}", show(&o));
    for (run, old) in run_dirs(&out).iter().zip(&before) {
        let recs = records(run);
        assert_eq!(recs.len(), 2, "{recs:?}");
        assert_eq!(pairs(&recs), all_pairs(&tasks, 1));
        assert_eq!(&recs[..old.len()], &old[..], "records from before are kept");
        let ids: BTreeSet<&str> = recs.iter().map(|r| r.run_id.as_str()).collect();
        assert_eq!(ids.len(), 1, "one run id per run folder: {ids:?}");
    }
    assert!(sweep_json(&out).finished_at.is_some());
}

#[test]
fn a_bad_sweep_file_is_refused_before_anything_runs() {
    let root = tempfile::tempdir().unwrap();
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: [scripted:task]\n{}trails: 3\n",
            tasks_yaml(&["term-log-report", "no-such-task"])
        ),
    );
    let out = root.path().join("out");
    let o = nab(&[], &file, &out).output().unwrap();
    let err = refusal(&o);
    assert!(
        err.contains("sweep.yaml:4:1: field `trails`: unknown field `trails`"),
        "{err}"
    );
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: [scripted:task]\n{}",
            tasks_yaml(&["term-log-report", "no-such-task"])
        ),
    );
    let o = nab(&[], &file, &out).output().unwrap();
    let err = refusal(&o);
    assert!(
        err.contains("sweep.yaml: field `tasks.ids[1]`: no task `no-such-task`"),
        "{err}"
    );
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [oracle, 'wrong:nope']\nmodels: [scripted:task]\n{}",
            tasks_yaml(&["term-log-report"])
        ),
    );
    let o = nab(&[], &file, &out).output().unwrap();
    let err = refusal(&o);
    assert!(
        err.contains("field `agents[1]`: task term-log-report has no wrong/nope/"),
        "{err}"
    );
    assert!(!out.exists(), "nothing was created");
}

/// A dollar limit a sweep cannot count is refused before anything runs, as in `nab run`:
/// a task with `budgets.usd`, or `--max-cost-usd`, when a model has no price; and a
/// `--max-cost-usd` that is not a positive, finite number of dollars.
#[test]
fn a_dollar_limit_without_a_price_is_refused_before_anything_runs() {
    let root = tempfile::tempdir().unwrap();
    let (suite, _) = common::usd_suite(root.path(), "0.5");
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: [scripted:task]\ntasks: {{dir: {}}}\n",
            suite.display()
        ),
    );
    let out = root.path().join("out");
    let o = nab(&[], &file, &out).output().unwrap();
    let err = refusal(&o);
    assert!(
        err.contains("task py-usd has budgets.usd, but model `scripted` has no price"),
        "{err}"
    );
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: [scripted:task]\n{}",
            tasks_yaml(&["term-log-report"])
        ),
    );
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: 'example-*', input: 1, cached_input: 1, output: 1}\n",
    );
    let p = prices.to_str().unwrap();
    let o = nab(&["--max-cost-usd", "2", "--prices", p], &file, &out)
        .output()
        .unwrap();
    let err = refusal(&o);
    assert!(
        err.contains(&format!(
            "--max-cost-usd 2: model `scripted` has no price in {p}"
        )),
        "{err}"
    );
    let o = nab(&["--max-cost-usd=-1"], &file, &out).output().unwrap();
    assert!(refusal(&o).contains("US dollars"));
    assert!(!out.exists(), "nothing was created");
}

/// `--max-cost-usd` is one total over the whole sweep: the first trial (of the first
/// model) crosses it, so no trial of either model starts after it; the skipped trials are
/// not recorded, the sweep is not marked finished and exits 3, naming how to resume. The
/// progress line of the trial that ran names its model.
#[tokio::test(flavor = "multi_thread")]
async fn a_max_cost_is_one_total_across_the_sweeps_models() {
    let answer = ResponseTemplate::new(200).set_body_json(final_answer());
    let Mocked {
        server, root, id, ..
    } = &mocked(answer, "sweep-cost", 2).await;
    let mock = format!("openai[stream=off]:priced@{}/v1", server.uri());
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [nab-agent]\nmodels: ['{mock}', scripted:task]\n{}trials: 2\njobs: 1\nattempts: 1\n",
            tasks_yaml(&["term-log-report"])
        ),
    );
    // 12 tokens at USD 1000 per million: 0.012, past the limit of 0.001.
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: priced, input: 1000, cached_input: 1000, output: 1000}\n  - {model: scripted, input: 1, cached_input: 1, output: 1}\n",
    );
    let out = root.path().join("out");
    let o = nab(
        &[
            "--id",
            id,
            "--prices",
            prices.to_str().unwrap(),
            "--max-cost-usd",
            "0.001",
        ],
        &file,
        &out,
    )
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", show(&o));
    let runs = run_dirs(&out);
    assert_eq!(runs.len(), 2);
    let first = records(&runs[0]);
    assert_eq!(first.len(), 1, "{}", show(&o));
    assert!(
        (first[0].usage.cost_usd.unwrap() - 0.012).abs() < 1e-12,
        "{first:?}"
    );
    assert!(
        records(&runs[1]).is_empty(),
        "the other model's trials did not start: {}",
        show(&o)
    );
    assert!(!runs[1].join("trials").exists(), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("3 trial(s) were not started")
            && err.contains(&format!("--resume --out {}", out.display())),
        "{err}"
    );
    assert!(
        err.contains(&format!("term-log-report nab-agent {mock} Failed")),
        "the progress line names the model: {err}"
    );
    assert!(sweep_json(&out).finished_at.is_none());
}

/// `nab sweep --shard K/N` twice at once, then `nab merge` of the two sweep folders: every
/// run of the merged sweep holds every (task, trial) once, with the verdicts its agent
/// must get; merging again gives the same files; one shard alone, or a sweep shard mixed
/// with a run folder, is refused.
#[tokio::test(flavor = "multi_thread")]
async fn sweep_shards_run_concurrently_and_merge_into_the_whole_sweep() {
    common::base_image().await;
    let tasks = ["term-log-report", "sh-csv-quoting"];
    let root = tempfile::tempdir().unwrap();
    let group = common::unique("sweep-shard");
    let _clean: Vec<_> = ["a", "b"]
        .iter()
        .flat_map(|s| ["01", "02"].map(|n| common::SweepOnDrop(format!("{group}-{s}-{n}"))))
        .collect();
    let file = write_sweep(
        root.path(),
        &format!(
            "agents: [oracle, null]\n{}trials: 2\njobs: 1\n",
            tasks_yaml(&tasks)
        ),
    );
    let shard_out = |k: u32| root.path().join(format!("shard-{k}"));
    let children: Vec<_> = [(1, "a"), (2, "b")]
        .iter()
        .map(|(k, s)| {
            nab(
                &[
                    "--shard",
                    &format!("{k}/2"),
                    "--group",
                    &group,
                    "--id",
                    &format!("{group}-{s}"),
                ],
                &file,
                &shard_out(*k),
            )
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    let mut per_shard = Vec::new();
    for (k, child) in (1..=2).zip(children) {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "shard {k}: {}", show(&o));
        assert!(
            !shard_out(k).join("leaderboard.html").exists(),
            "a shard is not ranked alone"
        );
        let index = sweep_json(&shard_out(k));
        assert_eq!(index.shard.as_ref().map(|s| s.index), Some(k), "{index:?}");
        assert_eq!(index.group.as_deref(), Some(group.as_str()));
        let runs = run_dirs(&shard_out(k));
        assert_eq!(runs.len(), 2);
        // Shard k holds the same pairs of each run.
        let shares: Vec<_> = runs.iter().map(|r| pairs(&records(r))).collect();
        assert_eq!(shares[0], shares[1], "shard {k}");
        per_shard.push(shares[0].clone());
    }
    assert!(per_shard[0].is_disjoint(&per_shard[1]), "{per_shard:?}");
    assert_eq!(per_shard[0].len() + per_shard[1].len(), 4, "{per_shard:?}");

    let merge = |dirs: &[PathBuf], out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_nab"))
            .arg("merge")
            .arg("--out")
            .arg(out)
            .args(dirs)
            .output()
            .unwrap()
    };
    let merged = root.path().join("merged");
    let both = [shard_out(1), shard_out(2)];
    let o = merge(&both, &merged);
    assert!(o.status.success(), "{}", show(&o));
    let runs = run_dirs(&merged);
    assert_eq!(runs.len(), 2);
    for run in &runs {
        let recs = records(run);
        assert_eq!(pairs(&recs), all_pairs(&tasks, 2), "{}", run.display());
        let want = if run.ends_with("01-oracle") {
            TrialStatus::Passed
        } else {
            TrialStatus::Failed
        };
        assert!(recs.iter().all(|r| r.outcome.status == want), "{recs:#?}");
        assert!(run.join(nab_protocol::REPORT_FILE).is_file());
    }
    let snapshot = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = walkdir::WalkDir::new(dir)
            .sort_by_file_name()
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().strip_prefix(dir).unwrap().to_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let first = snapshot(&merged);
    let o = merge(&both, &merged);
    assert!(o.status.success(), "{}", show(&o));
    assert!(first == snapshot(&merged), "a second merge changed files");
    // The merged sweep is one sweep for the leaderboard.
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["leaderboard"])
        .arg(&merged)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));

    // One shard alone: the missing trials are named and nothing is written.
    let lone = root.path().join("lone");
    let o = merge(&both[..1], &lone);
    let err = refusal(&o);
    assert!(
        err.contains("missing") && err.contains("shards not given: 2/2"),
        "{err}"
    );
    assert!(!lone.exists(), "a refused merge wrote {}", lone.display());
    // A sweep shard and a run folder are not parts of one thing.
    let o = merge(&[shard_out(1), runs[0].clone()], &lone);
    assert!(refusal(&o).contains("not both"), "{}", show(&o));
}
