//! The `nab` binary's evaluation subcommands over synthetic run folders (no Docker):
//! `judge` (with a scripted judge played by the gateway's provider), `report`, `compare`
//! (with and without a pairwise judge) and `gate` (exit codes, rule names, JUnit).

use nab_protocol::{SandboxExit, TrialRecord, TrialStatus};
use nab_reports::{
    SynthSpec, synth_records, synth_task_id as task_id, write_synth_run as synth_run,
};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(args)
        .env("NAB_LOG", "error")
        .output()
        .expect("run nab")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `o` exited with `code`: its stdout (both streams shown when it did not).
fn exited(o: &Output, code: i32) -> String {
    let (out, err) = text(o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{out}\nstderr:\n{err}"
    );
    out
}

fn succeeded(o: &Output) -> String {
    exited(o, 0)
}

/// `o` did not succeed: its stderr.
fn failed(o: &Output) -> String {
    let (out, err) = text(o);
    assert!(!o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    err
}

/// `nab <cmd> --baseline <base> --candidate <cand> <rest>` (gate, compare).
fn paired(cmd: &str, base: &Path, cand: &Path, rest: &[&str]) -> Output {
    let mut args = vec![cmd, "--baseline", s(base), "--candidate", s(cand)];
    args.extend(rest);
    nab(&args)
}

/// `nab review <args> --out <out>` succeeded and said `sampled`: the blind items it wrote.
fn review_export(args: &[&str], out: &Path, sampled: &str) -> String {
    let mut args = [&["review"], args].concat();
    args.extend(["--out", s(out)]);
    let said = succeeded(&nab(&args));
    assert!(said.contains(sampled), "{said}");
    std::fs::read_to_string(out.join("blind/items.jsonl")).unwrap()
}

/// A baseline that failed task t-a with an empty diff and a candidate that fixed it.
fn fixed_pair(base: &Path, cand: &Path) {
    small_run(
        base,
        "b",
        &[("t-a", 0, TrialStatus::Failed)],
        "--- a/x\n+++ b/x\n",
    );
    small_run(cand, "c", &[("t-a", 0, TrialStatus::Passed)], DIFF);
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// A small run folder written the way `nab run` writes one: results.jsonl, run.json naming
/// the tasks folder, and each trial's diff, events and transcript.
fn small_run(dir: &Path, run_id: &str, trials: &[(&str, u32, TrialStatus)], diff: &str) {
    let tasks = dir.join("tasks");
    let mut lines = String::new();
    for (task, trial, status) in trials {
        let t = tasks.join(task);
        std::fs::create_dir_all(&t).unwrap();
        std::fs::write(
            t.join("instruction.md"),
            format!("Fix the off-by-one in `paginate` ({task})."),
        )
        .unwrap();
        let mut r = TrialRecord::new(run_id, task, "bug-fix", *trial, "nab-agent");
        r.outcome.status = *status;
        if *status == TrialStatus::Error {
            r.outcome.error = Some("docker: no space left on device".into());
        } else {
            r.outcome.reward = f64::from(u8::from(*status == TrialStatus::Passed));
            r.outcome.exit_reason = Some(SandboxExit::Exited);
            r.usage.input_tokens = Some(1000);
            r.usage.output_tokens = Some(100);
            r.behaviour.steps = Some(3);
        }
        lines.push_str(&serde_json::to_string(&r).unwrap());
        lines.push('\n');
        let td = dir.join("trials").join(task).join(trial.to_string());
        std::fs::create_dir_all(&td).unwrap();
        std::fs::write(td.join(nab_protocol::DIFF_FILE), diff).unwrap();
        std::fs::write(td.join(nab_protocol::EVENTS_FILE), "").unwrap();
        std::fs::write(td.join(nab_protocol::TRANSCRIPT_FILE), "").unwrap();
    }
    std::fs::write(dir.join(nab_protocol::RESULTS_FILE), lines).unwrap();
    nab_reports::RunMeta {
        run_id: Some(run_id.into()),
        agent: Some("nab-agent".into()),
        model: Some("scripted:task".into()),
        tasks_dir: Some("tasks".into()),
        ..Default::default()
    }
    .write(dir)
    .unwrap();
}

fn read_records(dir: &Path) -> Vec<TrialRecord> {
    std::fs::read_to_string(dir.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .lines()
        .map(|l| TrialRecord::parse_line(l).unwrap())
        .collect()
}

const DIFF: &str = "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-    return items[page * size:(page + 1) * size - 1]\n+    return items[page * size:(page + 1) * size]\n";

#[test]
fn judge_grades_a_run_through_the_gateway_provider() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    small_run(
        &run,
        "r1",
        &[
            ("t-a", 0, TrialStatus::Passed),
            ("t-b", 0, TrialStatus::Failed),
            ("t-c", 0, TrialStatus::Error),
        ],
        DIFF,
    );
    let spec = format!("scripted:{}", fixture("judge_answers.yaml"));
    let o = nab(&["judge", "--run", s(&run), "--judge", &spec]);
    let out = succeeded(&o);
    assert!(
        out.contains("graded 2 trial verdict(s), skipped 1, judge errors 0"),
        "{out}"
    );

    let recs = read_records(&run);
    let a = &recs[0].judges;
    assert_eq!(a.len(), 1, "one verdict per judge");
    assert!(
        a[0].judge_model.starts_with("scripted:"),
        "{}",
        a[0].judge_model
    );
    assert_eq!(a[0].rubric_id, "code-quality");
    assert!(a[0].error.is_none(), "{:?}", a[0].error);
    let w = a[0].weighted_score.expect("scored");
    assert!(
        (w - 13.0 / 3.0).abs() < 1e-9,
        "equal weights of 4, 4, 5: {w}"
    );
    assert_eq!(
        (a[0].vetoed, a[0].gate_passed, a[0].retries),
        (false, Some(true), 0)
    );
    assert!(
        a[0].input_tokens > 0 && a[0].output_tokens > 0,
        "judge usage recorded"
    );
    assert_eq!(
        recs[0].usage.input_tokens,
        Some(1000),
        "agent tokens untouched"
    );

    // The string score was rejected and retried once; the veto then fails the gate in Rust.
    let b = &recs[1].judges[0];
    assert_eq!(b.retries, 1);
    assert!(b.vetoed);
    assert_eq!(b.gate_passed, Some(false));
    assert!((b.weighted_score.unwrap() - 3.0).abs() < 1e-9);
    assert!(
        recs[2].judges.is_empty(),
        "infrastructure errors are not judged"
    );

    let attempts = std::fs::read_to_string(run.join("trials/t-b/0/judge_attempts.jsonl")).unwrap();
    assert!(
        attempts.contains("\\\"4\\\"") || attempts.contains("integer"),
        "{attempts}"
    );
    let html =
        std::fs::read_to_string(run.join(nab_protocol::REPORT_FILE)).expect("report rewritten");
    assert!(html.contains("t-a"));

    // Already judged with the same rubric: skipped without asking the judge (whose script is
    // spent, so asking would record a model error).
    let again = nab(&["judge", "--run", s(&run), "--judge", &spec]);
    let out = succeeded(&again);
    assert!(
        out.contains("graded 0 trial verdict(s), skipped 3"),
        "{out}"
    );
    assert_eq!(read_records(&run)[0].judges, recs[0].judges);

    // Forced again with a judge that never answers with a verdict (one answer that is not
    // JSON, then nothing): every verdict is an error, and the command fails.
    let broken = tmp.path().join("broken_judge.yaml");
    std::fs::write(&broken, "turns:\n  - content: \"not a verdict\"\n").unwrap();
    let broken = format!("scripted:{}", broken.display());
    let spent = nab(&["judge", "--run", s(&run), "--judge", &broken, "--force"]);
    let (out, err) = text(&spent);
    assert_eq!(spent.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("every one of the 2 verdict(s) failed"),
        "{err}"
    );
}

#[test]
fn the_report_judge_rewrites_reads_the_suite_given_with_tasks() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    small_run(
        &run,
        "r1",
        &[
            ("t-a", 0, TrialStatus::Passed),
            ("t-b", 0, TrialStatus::Failed),
        ],
        DIFF,
    );
    // A copied run folder: the suite run.json names is gone, and --tasks points at it.
    let moved = tmp.path().join("elsewhere");
    std::fs::rename(run.join("tasks"), &moved).unwrap();
    let spec = format!("scripted:{}", fixture("judge_answers.yaml"));
    let o = nab(&[
        "judge",
        "--run",
        s(&run),
        "--judge",
        &spec,
        "--tasks",
        s(&moved),
    ]);
    let out = succeeded(&o);
    assert!(out.contains("graded 2 trial verdict(s)"), "{out}");
    let html = std::fs::read_to_string(run.join(nab_protocol::REPORT_FILE)).unwrap();
    let views = nab_reports::trial_views(&html);
    assert_eq!(views.len(), 2);
    for (title, view) in &views {
        let task = title.split(' ').next().unwrap();
        assert!(
            view.contains(&format!("Fix the off-by-one in `paginate` ({task})."))
                || view.contains(&format!(
                    "Fix the off-by-one in <code>paginate</code> ({task})."
                )),
            "the trial view of {title} shows its instruction: {}",
            &view[..view.len().min(600)]
        );
    }
}

#[test]
fn judge_rejects_a_bad_spec_and_a_missing_judge() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    small_run(&run, "r1", &[("t-a", 0, TrialStatus::Passed)], DIFF);
    let o = nab(&["judge", "--run", s(&run), "--judge", "gpt-4"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--judge gpt-4"), "{err}");
    let o = nab(&["judge", "--run", s(&run)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("at least one --judge"),
        "{}",
        text(&o).1
    );
}

#[test]
fn report_writes_the_html_summary_and_parquet() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let spec = SynthSpec::new("rep", 6, 2);
    synth_run(&run, &spec, &synth_records(&spec)).unwrap();
    let o = nab(&["report", "--run", s(&run)]);
    let out = succeeded(&o);
    assert!(out.contains("over 6 tasks, 12 trials"), "{out}");
    let html = std::fs::read_to_string(run.join(nab_protocol::REPORT_FILE)).unwrap();
    assert!(html.contains(&task_id(5)), "every task is in the table");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(run.join(nab_protocol::SUMMARY_FILE)).unwrap(),
    )
    .unwrap();
    assert_eq!(summary["tasks"], 6);
    assert!(
        run.join(nab_protocol::PARQUET_FILE)
            .metadata()
            .unwrap()
            .len()
            > 0
    );

    let missing = nab(&["report", "--run", s(&tmp.path().join("nope"))]);
    assert_eq!(missing.status.code(), Some(2), "bad input is exit 2");
}

#[test]
fn export_writes_three_tables_and_refuses_a_hostile_run_with_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = tmp.path().join("sweep");
    for (name, tasks) in [("m1", 3), ("m2", 5)] {
        let spec = SynthSpec::new(name, tasks, 2);
        synth_run(&sweep.join(name), &spec, &synth_records(&spec)).unwrap();
    }
    let out = tmp.path().join("tables");
    let o = nab(&["export", "--format", "parquet", "--out", s(&out), s(&sweep)]);
    let printed = succeeded(&o);
    assert!(
        printed.contains("exported 16 trial(s) of 2 run(s)"),
        "{printed}"
    );
    for table in ["trials", "tasks", "runs"] {
        let file = out.join(format!("{table}.parquet"));
        assert!(
            printed.contains(&format!("wrote {}", file.display())),
            "{printed}"
        );
        assert_eq!(&std::fs::read(&file).unwrap()[..4], b"PAR1", "{table}");
    }

    // Without --out, CSV into the current folder: a header and a line per row.
    let cwd = tmp.path().join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["export", s(&sweep.join("m2"))])
        .current_dir(&cwd)
        .output()
        .unwrap();
    succeeded(&o);
    let lines = |t: &str| {
        std::fs::read_to_string(cwd.join(t))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(
        (lines("trials.csv"), lines("tasks.csv"), lines("runs.csv")),
        (11, 6, 2)
    );
    assert!(
        !sweep.join("m2").join("trials.csv").exists(),
        "a run folder is never written to"
    );

    // A results.jsonl that is a link to /dev/zero: exit 2 naming it, no table written.
    let bad = sweep.join("m1").join(nab_protocol::RESULTS_FILE);
    std::fs::remove_file(&bad).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &bad).unwrap();
    let empty = tmp.path().join("empty");
    let o = nab(&["export", "--out", s(&empty), s(&sweep)]);
    let err = failed(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&bad.display().to_string()) && err.contains("not a regular file"),
        "{err}"
    );
    assert!(!empty.exists(), "nothing written");

    let o = nab(&["export", "--format", "xlsx", s(&sweep)]);
    let err = failed(&o);
    assert!(err.contains("csv") && err.contains("parquet"), "{err}");
}

/// A baseline and a candidate from the same synthetic records; `lose` lists task indexes
/// whose every candidate trial fails.
fn two_runs(tmp: &Path, lose: &[usize]) -> (PathBuf, PathBuf) {
    // 5 trials: enough for the gate's per-task exact test (5/5 → 0/5 is p = 1/252).
    two_runs_of(tmp, 12, 5, lose)
}

/// [`two_runs`] with `tasks` tasks of `trials` trials.
fn two_runs_of(tmp: &Path, tasks: usize, trials: u32, lose: &[usize]) -> (PathBuf, PathBuf) {
    let base_spec = SynthSpec {
        artifacts: false,
        ..SynthSpec::new("base", tasks, trials)
    };
    let base = tmp.join("base");
    let recs = synth_records(&base_spec);
    synth_run(&base, &base_spec, &recs).unwrap();
    let cand_spec = SynthSpec {
        run_id: "cand".into(),
        ..base_spec
    };
    let cand = tmp.join("cand");
    let cand_recs: Vec<TrialRecord> = recs
        .into_iter()
        .map(|mut r| {
            r.run_id = "cand".into();
            if lose.iter().any(|&i| r.task_id == task_id(i)) {
                r.outcome.status = TrialStatus::Failed;
                r.outcome.reward = 0.0;
            }
            r
        })
        .collect();
    synth_run(&cand, &cand_spec, &cand_recs).unwrap();
    (base, cand)
}

#[test]
fn gate_passes_an_identical_candidate() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, cand) = two_runs(tmp.path(), &[]);
    let junit = tmp.path().join("gate.xml");
    let o = paired("gate", &base, &cand, &["--junit", s(&junit)]);
    exited(&o, 0);
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    assert!(xml.contains("<testsuite"), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
}

/// Three tasks of two trials, every one lost: no rule that compares pass rates can run on
/// so little, and a skipped rule must not read as a pass.
#[test]
fn gate_is_inconclusive_when_no_pass_rate_rule_could_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, cand) = two_runs_of(tmp.path(), 3, 2, &[0, 1, 2]);
    let o = paired("gate", &base, &cand, &[]);
    let out = exited(&o, 4);
    assert!(out.contains("## nab gate: ⚠️ inconclusive"), "{out}");
    assert!(!out.contains("✅ passed"), "{out}");
    assert!(text(&o).1.contains("gate: inconclusive"), "{}", text(&o).1);
}

#[test]
fn gate_fails_when_always_passing_tasks_now_fail() {
    let tmp = tempfile::tempdir().unwrap();
    // Tasks 0 and 4 pass every synthetic trial (pass probability 1).
    let (base, cand) = two_runs(tmp.path(), &[0, 4]);
    let config = tmp.path().join("gate.yaml");
    std::fs::write(&config, "max_pass_rate_drop: 0.5\n").unwrap();
    let o = paired("gate", &base, &cand, &["--config", s(&config)]);
    let out = exited(&o, 1);
    assert!(out.contains("task_regressed"), "{out}");
    assert!(
        out.contains(&task_id(0)) && out.contains(&task_id(4)),
        "the lost tasks are named: {out}"
    );
    let xml = std::fs::read_to_string(cand.join("gate-junit.xml")).expect("default junit path");
    assert!(xml.contains("<failure"), "{xml}");
    assert!(xml.contains(&task_id(0)), "{xml}");

    let bad = paired("gate", &base, &tmp.path().join("x"), &[]);
    assert_eq!(
        bad.status.code(),
        Some(2),
        "bad input is not a failing gate"
    );
}

#[test]
fn compare_writes_compare_html() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, cand) = two_runs(tmp.path(), &[0]);
    let o = paired("compare", &base, &cand, &[]);
    let out = succeeded(&o);
    assert!(
        out.contains(&task_id(0)),
        "changed task in the summary: {out}"
    );
    let html = std::fs::read_to_string(cand.join(nab_protocol::COMPARE_FILE))
        .expect(nab_protocol::COMPARE_FILE);
    assert!(html.contains(&task_id(0)));
    assert!(
        html.contains("no pairwise judge results"),
        "no judge was asked"
    );
    assert!(!cand.join(nab_protocol::PAIRWISE_FILE).exists());
}

#[test]
fn compare_with_a_judge_feeds_pairwise_results_into_the_comparison() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    let cand = tmp.path().join("cand");
    fixed_pair(&base, &cand);
    let spec = format!("scripted:{}", fixture("pairwise_answers.yaml"));
    let html_out = tmp.path().join("cmp.html");
    let o = paired(
        "compare",
        &base,
        &cand,
        &["--judge", &spec, "--out", s(&html_out)],
    );
    let out = succeeded(&o);
    // The judges' own report: one consistent win.
    assert!(out.contains("| 1 | 0 | 0 | 0 | 0 | 1 | 100.0% |"), "{out}");
    // …and the reports' terminal summary, fed from it.
    assert!(
        out.contains("pairwise judge: candidate 1 · baseline 0 · tie 0"),
        "{out}"
    );
    let pairs = std::fs::read_to_string(cand.join(nab_protocol::PAIRWISE_FILE)).unwrap();
    assert!(pairs.contains("\"outcome\":\"win\""), "{pairs}");
    let html = std::fs::read_to_string(&html_out).unwrap();
    assert!(
        html.contains("candidate wins <b>1</b>"),
        "pairwise section filled"
    );

    // The pairs file is what `nab review export-pairwise` samples for humans (the tasks
    // folder comes from run.json).
    let review = tmp.path().join("review");
    let pairs = cand.join(nab_protocol::PAIRWISE_FILE);
    let blind = review_export(
        &[
            "export-pairwise",
            "--baseline",
            s(&base),
            "--candidate",
            s(&cand),
            "--pairwise",
            s(&pairs),
            "--fraction",
            "1",
        ],
        &review,
        "sampled 1 of 1",
    );
    assert!(
        !blind.contains("scripted:"),
        "no judge names in the blind sample"
    );

    // The pairs file can be shown again later without asking the judge.
    let again = paired(
        "compare",
        &base,
        &cand,
        &["--pairwise", s(&cand.join(nab_protocol::PAIRWISE_FILE))],
    );
    let out = succeeded(&again);
    assert!(out.contains("pairwise judge: candidate 1"), "{out}");
}

#[test]
fn review_export_writes_a_blind_sample_of_a_judged_run() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let spec = SynthSpec::new("rev", 5, 2);
    synth_run(&run, &spec, &synth_records(&spec)).unwrap();
    let out_dir = tmp.path().join("review");
    // No --tasks: the tasks folder comes from run.json.
    let items = review_export(
        &[
            "export",
            "--run",
            s(&run),
            "--fraction",
            "0.5",
            "--min-items",
            "1",
            "--seed",
            "3",
        ],
        &out_dir,
        "sampled 5 of 10",
    );
    assert_eq!(items.lines().count(), 5);
    // By default a sample holds at least 20 items: all 10 here, whatever the fraction.
    let all = review_export(
        &[
            "export",
            "--run",
            s(&run),
            "--fraction",
            "0.1",
            "--seed",
            "3",
        ],
        &tmp.path().join("review-default"),
        "sampled 10 of 10",
    );
    assert_eq!(all.lines().count(), 10);
    assert!(
        !items.contains("nab-agent") && !items.contains("replay:cassettes"),
        "blind"
    );
    assert!(out_dir.join("blind/form.html").is_file());
}

fn nab_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(args)
        .current_dir(cwd)
        .env("NAB_LOG", "error")
        .output()
        .expect("run nab")
}

/// Two runs of one suite laid out as `nab run` leaves them (`<root>/runs/{base,cand}` with
/// run.json naming `../../tasks` and the suite's hash), then copied to `<root>/download`, as
/// a CI artifact is.
fn copied_runs(root: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let runs = root.join("suite/runs");
    let (base, cand) = (runs.join("base"), runs.join("cand"));
    fixed_pair(&base, &cand);
    let tasks = root.join("suite/tasks");
    std::fs::rename(base.join("tasks"), &tasks).unwrap();
    std::fs::remove_dir_all(cand.join("tasks")).unwrap();
    let ids = vec!["t-a".to_owned()];
    let hash = nab_protocol::suite_hash(&tasks, &ids).unwrap();
    let download = root.join("download");
    std::fs::create_dir_all(&download).unwrap();
    for run in [&base, &cand] {
        let mut meta = nab_reports::RunMeta::read(run).unwrap();
        meta.tasks_dir = Some("../../tasks".into());
        meta.tasks_hash = Some(hash.clone());
        meta.task_ids = ids.clone();
        meta.write(run).unwrap();
        let cp = Command::new("cp")
            .arg("-r")
            .arg(run)
            .arg(&download)
            .status();
        assert!(cp.unwrap().success());
    }
    (download.join("base"), download.join("cand"), tasks)
}

#[test]
fn a_copied_run_folder_works_with_compare_judge_report_and_review() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, cand, tasks) = copied_runs(tmp.path());
    let pair_spec = format!("scripted:{}", fixture("pairwise_answers.yaml"));
    let compare = |cwd: &Path, tasks: Option<&Path>| {
        let mut args = vec!["compare", "--baseline", s(&base), "--candidate", s(&cand)];
        args.extend(["--judge", &pair_spec]);
        if let Some(t) = tasks {
            args.extend(["--tasks", s(t)]);
        }
        nab_in(cwd, &args)
    };

    // Nowhere to find the suite: one clear line, not a skip per pair and a wrong summary.
    let o = compare(tmp.path(), None);
    let err = failed(&o);
    assert!(err.contains("cannot find the tasks of run"), "{err}");
    assert!(err.contains("--tasks"), "{err}");
    assert!(
        !err.contains("skipping") && !err.contains("share no"),
        "{err}"
    );

    // Given with --tasks: judged.
    let o = compare(tmp.path(), Some(&tasks));
    let out = succeeded(&o);
    assert!(out.contains("pairwise judge: candidate 1"), "{out}");

    // Found as ./tasks beside where nab runs: judged, after checking the hash.
    let o = compare(&tmp.path().join("suite"), None);
    assert!(o.status.success(), "{:?}", text(&o));

    let judge_spec = format!("scripted:{}", fixture("judge_answers.yaml"));
    let o = nab(&[
        "judge",
        "--run",
        s(&cand),
        "--judge",
        &judge_spec,
        "--tasks",
        s(&tasks),
    ]);
    let out = succeeded(&o);
    assert!(out.contains("graded 1 trial verdict(s)"), "{out}");

    let o = nab(&["report", "--run", s(&cand), "--tasks", s(&tasks)]);
    assert!(o.status.success(), "{:?}", text(&o));

    let review = tmp.path().join("review");
    let o = nab(&["review", "export", "--run", s(&cand), "--fraction", "1"]);
    assert!(!o.status.success(), "no suite, no review: {:?}", text(&o));
    let o = nab(&[
        "review",
        "export",
        "--run",
        s(&cand),
        "--fraction",
        "1",
        "--tasks",
        s(&tasks),
        "--out",
        s(&review),
    ]);
    let out = succeeded(&o);
    assert!(out.contains("sampled 1 of 1"), "{out}");

    // The suite changed since the run: refused, naming both the recorded and the given one.
    std::fs::write(tasks.join("t-a/instruction.md"), "Something else entirely.").unwrap();
    for o in [
        compare(tmp.path(), Some(&tasks)),
        nab(&["report", "--run", s(&cand), "--tasks", s(&tasks)]),
    ] {
        let err = failed(&o);
        assert!(err.contains("are not the suite run"), "{err}");
        assert!(err.contains(s(&tasks)) && err.contains("sha256:"), "{err}");
        assert!(
            err.contains("../../tasks"),
            "names the recorded folder: {err}"
        );
    }
}

/// A completion answering one pairwise judge prompt with a tie.
fn tie_completion() -> serde_json::Value {
    serde_json::json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "judge-m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
            "content": "{\"winner\":\"tie\",\"evidence\":\"both change the same slice bound\"}"}}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920}
    })
}

/// Runs `nab compare --judge openai:judge-m@<server>` on one shared pair with `extra` options.
fn compare_with_http_judge(root: &Path, server: &str, extra: &[&str]) -> (Output, PathBuf) {
    let base = root.join("base");
    let cand = root.join("cand");
    small_run(&base, "b", &[("t-a", 0, TrialStatus::Failed)], DIFF);
    small_run(&cand, "c", &[("t-a", 0, TrialStatus::Passed)], DIFF);
    let spec = format!("openai:judge-m@{server}/v1");
    let mut args = vec![
        "compare",
        "--baseline",
        s(&base),
        "--candidate",
        s(&cand),
        "--judge",
        &spec,
    ];
    args.extend_from_slice(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(&args)
        .env("NAB_LOG", "error")
        .env("NAB_API_KEY", "test-key")
        .output()
        .expect("run nab");
    (o, cand.join(nab_protocol::PAIRWISE_FILE))
}

/// Judge requests go out with the answer cap (`max_tokens` from --judge-max-tokens) and
/// unstreamed: the provider below answers only such requests, so without the cap no verdict
/// would come back.
#[tokio::test(flavor = "multi_thread")]
async fn compare_judge_requests_carry_the_answer_cap() {
    use wiremock::matchers::{body_partial_json, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_partial_json(serde_json::json!({"max_tokens": 64})))
        .respond_with(ResponseTemplate::new(200).set_body_json(tie_completion()))
        .expect(2)
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let (o, pairs) =
        compare_with_http_judge(tmp.path(), &server.uri(), &["--judge-max-tokens", "64"]);
    let out = succeeded(&o);
    let pairs = std::fs::read_to_string(pairs).unwrap();
    assert!(pairs.contains("\"outcome\":\"tie\""), "{pairs}");
    assert!(
        out.contains("pairwise judge: candidate 0 · baseline 0 · tie 1"),
        "{out}"
    );
}

/// The judge's timeout bounds the whole unstreamed call: a provider slower than
/// --judge-timeout ends as the pair's model error, named, and the comparison still finishes.
#[tokio::test(flavor = "multi_thread")]
async fn compare_judge_timeout_bounds_the_whole_call() {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(tie_completion())
                .set_delay(std::time::Duration::from_secs(30)),
        )
        .mount(&server)
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let (o, pairs) = compare_with_http_judge(tmp.path(), &server.uri(), &["--judge-timeout", "1"]);
    succeeded(&o);
    // 4 attempts of 1 s and 3.5 s of backoff per order, not the 30 s the provider takes.
    assert!(started.elapsed().as_secs() < 29, "{:?}", started.elapsed());
    let pairs = std::fs::read_to_string(pairs).unwrap();
    assert!(pairs.contains("\"outcome\":\"error\""), "{pairs}");
    assert!(pairs.contains("1s"), "names the timeout: {pairs}");
}
