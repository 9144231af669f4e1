//! The CLI entry points over real run folders: `nab judge`, `nab compare`,
//! `nab review export|import`, with scripted judges from a model factory.

use crate::common;
use nab_judges::cli::{compare, judge, review};
use nab_judges::{CompareSummary, judge_pairs};

use nab_judges::JudgeArgs;
use nab_judges::JudgeOpts;
use nab_judges::PairwiseArgs;
use nab_judges::TrialGrader;
use nab_judges::{ChatMessage, JudgeModel, ScriptedJudge};
use nab_judges::{
    ReviewArgs, ReviewCommand, ReviewExportArgs, ReviewImportArgs, ReviewOutcome,
    ReviewPairwiseExportArgs, SampleArgs,
};
use nab_protocol::{TrialRecord, TrialStatus};
use std::path::{Path, PathBuf};

const MODEL: &str = "openai:secret-model-x@http://127.0.0.1:9";
const AGENT: &str = "command:/opt/agents/rival-agent";
const RUN_ID: &str = "run-2026-hush";

/// The hidden quality of trial (t, i), written into its diff as `quality=N`.
fn quality(t: usize, i: u32) -> u8 {
    ((t * 3 + i as usize) % 5 + 1) as u8
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A run folder with `tasks` tasks × 3 trials; `tag` goes into every diff.
fn make_run(root: &Path, name: &str, tag: &str, tasks: usize) -> PathBuf {
    let run = root.join(name);
    let mut lines = String::new();
    for t in 0..tasks {
        let task = format!("task-{t}");
        write(
            &root.join("tasks").join(&task).join("instruction.md"),
            &format!("Fix bug number {t}.\n"),
        );
        for i in 0..3u32 {
            let mut r = TrialRecord::new(RUN_ID, &task, "bug-fix", i, AGENT);
            r.model = Some(MODEL.into());
            r.outcome.status = if t == 0 && i == 2 {
                TrialStatus::Error
            } else {
                TrialStatus::Passed
            };
            lines.push_str(&serde_json::to_string(&r).unwrap());
            lines.push('\n');
            let dir = run.join("trials").join(&task).join(i.to_string());
            write(
                &dir.join(nab_protocol::DIFF_FILE),
                &format!(
                    "+# {tag} quality={} written by secret-model-x via rival-agent\n",
                    quality(t, i)
                ),
            );
            write(
                &dir.join(nab_protocol::EVENTS_FILE),
                "{\"v\":1,\"ts\":\"t\",\"kind\":\"tool_call\",\"step\":1,\"tool_call_id\":\"c\",\"name\":\"edit_file\",\"args_summary\":\"path=a.py\",\"status\":\"ok\",\"duration_ms\":2}\n{\"v\":1,\"ts\":\"t\",\"kind\":\"finish\",\"exit_reason\":\"final_answer\",\"steps\":2,\"message\":\"done\"}\n",
            );
        }
    }
    write(&run.join(nab_protocol::RESULTS_FILE), &lines);
    run
}

fn quality_in(msgs: &[ChatMessage]) -> u8 {
    let user = &msgs[1].content;
    user.split("quality=")
        .nth(1)
        .and_then(|s| s[..1].parse().ok())
        .unwrap_or(3)
}

/// A pairwise verdict for the change whose diff says GOOD (A or B, as the prompt put it).
fn prefer_good(m: &[ChatMessage]) -> String {
    let u = &m[1].content;
    let good_in_a = u
        .find("GOOD")
        .is_some_and(|g| g < u.find("# Change B").unwrap_or(0));
    format!(
        r#"{{"winner":"{}","evidence":"clearer"}}"#,
        if good_in_a { "A" } else { "B" }
    )
}

/// `scripted:a` scores readability and error handling by the hidden quality; `scripted:b`
/// agrees on readability but always says 3 for error handling; `scripted:pair` prefers the
/// side whose diff says GOOD.
fn factory(spec: &str) -> anyhow::Result<Box<dyn JudgeModel>> {
    Ok(Box::new(match spec {
        "scripted:a" => ScriptedJudge::deciding(spec, |m| {
            let q = quality_in(m);
            common::answer([q, q, 3], [false, false, false])
        }),
        "scripted:b" => ScriptedJudge::deciding(spec, |m| {
            common::answer([quality_in(m), 3, 3], [false, false, false])
        }),
        "scripted:pair" => ScriptedJudge::deciding(spec, prefer_good),
        other => anyhow::bail!("unknown judge spec {other}"),
    }))
}

fn judge_args(run: &Path, tasks: &Path, force: bool) -> JudgeArgs {
    JudgeArgs {
        run: run.into(),
        opts: JudgeOpts {
            judges: vec!["scripted:a".into(), "scripted:b".into()],
            rubric: None,
        },
        tasks: Some(tasks.into()),
        force,
    }
}

fn read_records(run: &Path) -> Vec<TrialRecord> {
    std::fs::read_to_string(run.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .lines()
        .map(|l| TrialRecord::parse_line(l).unwrap())
        .collect()
}

#[tokio::test]
async fn judge_grades_a_run_then_skips_already_judged_trials_and_reports_agreement() {
    let tmp = tempfile::tempdir().unwrap();
    let run = make_run(tmp.path(), "run", "plain", 4);
    let tasks = tmp.path().join("tasks");
    let s = judge::run(judge_args(&run, &tasks, false), &factory)
        .await
        .unwrap();
    assert_eq!(
        (s.graded, s.judge_errors),
        (22, 0),
        "11 completed trials × 2 judges"
    );
    let records = read_records(&run);
    for r in &records {
        if r.outcome.status == TrialStatus::Error {
            assert!(r.judges.is_empty(), "infrastructure errors are not judged");
            continue;
        }
        assert_eq!(r.judges.len(), 2);
        let a = &r.judges[0];
        assert_eq!(a.judge_model, "scripted:a");
        let t: usize = r.task_id.trim_start_matches("task-").parse().unwrap();
        assert_eq!(a.scores[0].score, quality(t, r.trial));
        assert!(a.prompt_hash.starts_with("sha256:") && a.rubric_id == "code-quality");
        // Agent tokens untouched; judge tokens kept on the judge record.
        assert!(r.usage.input_tokens.is_none() && a.input_tokens > 0);
        assert!(
            run.join("trials")
                .join(&r.task_id)
                .join(r.trial.to_string())
                .join(nab_protocol::JUDGE_ATTEMPTS_FILE)
                .exists()
        );
    }
    assert!(
        s.markdown
            .contains("| readability | scripted:a | scripted:b | 11 | 1.000 | 1.000 |"),
        "{}",
        s.markdown
    );
    assert!(
        s.markdown
            .contains("| error_handling | scripted:a | scripted:b | 11 |"),
        "{}",
        s.markdown
    );

    let again = judge::run(judge_args(&run, &tasks, false), &factory)
        .await
        .unwrap();
    assert_eq!((again.graded, again.skipped), (0, 23));
    let forced = judge::run(judge_args(&run, &tasks, true), &factory)
        .await
        .unwrap();
    assert_eq!(forced.graded, 22);
    assert_eq!(
        read_records(&run)
            .iter()
            .map(|r| r.judges.len())
            .sum::<usize>(),
        22,
        "re-grading replaces, never duplicates"
    );
}

/// The harness may spawn these futures on a multi-threaded runtime.
#[test]
fn entry_point_futures_are_send() {
    fn assert_send<T: Send>(_: &T) {}
    let tmp = PathBuf::from("/nonexistent");
    let f = judge::run(judge_args(&tmp, &tmp, false), &factory);
    assert_send(&f);
    let args = PairwiseArgs {
        tasks: Some(tmp.clone()),
        ..PairwiseArgs::default()
    };
    let c = compare::run(args.clone(), &tmp, &tmp, &factory);
    assert_send(&c);
    let j = judge_pairs(&args, &tmp, &tmp, None, &factory);
    assert_send(&j);
}

#[tokio::test]
async fn trial_grader_for_nab_run() {
    let none = TrialGrader::from_opts(&JudgeOpts::default(), &factory).unwrap();
    assert!(none.is_none());
    let opts = JudgeOpts {
        judges: vec!["scripted:a".into()],
        rubric: None,
    };
    let g = TrialGrader::from_opts(&opts, &factory).unwrap().unwrap();
    let records = g
        .grade_trial("Fix it.", "+x quality=4\n", &[], &[], &[])
        .await
        .unwrap();
    assert_eq!(records[0].scores[0].score, 4);
    let bad = JudgeOpts {
        judges: vec!["nope:x".into()],
        rubric: None,
    };
    let err = TrialGrader::from_opts(&bad, &factory).err().unwrap();
    assert!(format!("{err:#}").contains("--judge nope:x"), "{err:#}");
}

#[tokio::test]
async fn compare_without_the_suite_says_why_once() {
    let tmp = tempfile::tempdir().unwrap();
    let base = make_run(tmp.path(), "base", "meh", 3);
    let cand = make_run(tmp.path(), "cand", "GOOD", 3);
    // A suite folder without the runs' tasks in it.
    std::fs::create_dir_all(tmp.path().join("elsewhere")).unwrap();
    let args = PairwiseArgs {
        judges: vec!["scripted:pair".into()],
        tasks: Some(tmp.path().join("elsewhere")),
        ..PairwiseArgs::default()
    };
    let err = format!(
        "{:#}",
        judge_pairs(&args, &base, &cand, None, &factory)
            .await
            .err()
            .unwrap()
    );
    assert!(
        err.starts_with("all 8 shared (task, trial) pairs were skipped"),
        "{err}"
    );
    assert!(err.contains("instruction"), "names the cause: {err}");
    assert!(!err.contains("share no (task, trial) pair"), "{err}");
}

#[tokio::test]
async fn compare_counts_wins_over_shared_trials() {
    let tmp = tempfile::tempdir().unwrap();
    let base = make_run(tmp.path(), "base", "meh", 3);
    let cand = make_run(tmp.path(), "cand", "GOOD", 4);
    let out = tmp.path().join(nab_protocol::PAIRWISE_FILE);
    let args = PairwiseArgs {
        judges: vec!["scripted:pair".into()],
        tasks: Some(tmp.path().join("tasks")),
        pairs_out: Some(out.clone()),
        ..PairwiseArgs::default()
    };
    let outcome = compare::run(args, &base, &cand, &factory).await.unwrap();
    let (s, written) = outcome.judged.unwrap();
    assert_eq!(written, out);
    assert_eq!(outcome.verdicts.len(), 8, "every judged pair is a verdict");
    // 3 shared tasks × 3 trials, minus task-0 trial 2 (an infrastructure error in both).
    let r = &s.reports[0].1;
    assert_eq!((r.wins, r.losses, r.inconsistent, r.n), (8, 0, 0, 8));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 8);
    assert!(
        s.markdown
            .contains("| scripted:pair | 8 | 0 | 0 | 0 | 0 | 8 | 100.0% | 1.000 |"),
        "{}",
        s.markdown
    );

    // Blind pairwise review of those pairs: sides shuffled by the seed, mapped back on import.
    let rev = tmp.path().join("pair-review");
    let export = ReviewArgs {
        command: ReviewCommand::ExportPairwise(ReviewPairwiseExportArgs {
            baseline: tmp.path().join("base"),
            candidate: tmp.path().join("cand"),
            pairwise: out.clone(),
            sample: SampleArgs {
                fraction: 1.0,
                min_items: 20,
                seed: 5,
                rubric: None,
                tasks: Some(tmp.path().join("tasks")),
            },
            out: rev.clone(),
        }),
    };
    let ReviewOutcome::Exported(e) = review::run(export).unwrap() else {
        panic!()
    };
    assert_eq!(e.sampled, 8);
    let items = std::fs::read_to_string(rev.join("blind/items.jsonl")).unwrap();
    let html = std::fs::read_to_string(rev.join("blind/form.html")).unwrap();
    for text in [&items, &html] {
        let lower = text.to_lowercase();
        for secret in [
            "secret-model-x",
            "openai",
            "rival-agent",
            "run-2026-hush",
            "scripted:pair",
            "baseline",
            "candidate",
        ] {
            assert!(!lower.contains(secret), "pairwise export leaks {secret}");
        }
    }
    let mut verdicts = String::new();
    let (mut good_a, mut good_b) = (0, 0);
    for (n, line) in items.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let winner = if v["a"]["diff"].as_str().unwrap().contains("GOOD") {
            good_a += 1;
            "A"
        } else {
            good_b += 1;
            "B"
        };
        // The reviewer picks the GOOD side, except one tie.
        let winner = if n == 0 { "tie" } else { winner };
        verdicts.push_str(&format!(
            "{{\"item\":\"{}\",\"reviewer\":\"r\",\"winner\":\"{winner}\",\"notes\":\"\"}}\n",
            v["item"].as_str().unwrap()
        ));
    }
    assert!(
        good_a > 0 && good_b > 0,
        "the seed shows the candidate on both sides ({good_a}/{good_b})"
    );
    let vfile = rev.join("verdicts.jsonl");
    std::fs::write(&vfile, verdicts).unwrap();
    let import = ReviewArgs {
        command: ReviewCommand::Import(ReviewImportArgs {
            file: vfile,
            export: None,
            threshold: 0.6,
            bootstrap: 200,
            seed: 1,
        }),
    };
    let ReviewOutcome::Imported(rep) = review::run(import).unwrap() else {
        panic!()
    };
    let row = &rep.rows[0];
    assert_eq!(
        (row.judge.as_str(), row.kind.as_str(), row.n),
        ("scripted:pair", "pairwise", 8)
    );
    // 7 of 8 agree only if A/B were mapped back to baseline/candidate correctly.
    assert_eq!(row.percent_agreement, Some(7.0 / 8.0));
    // The judge said "candidate" throughout: one constant rater, κ = 0, warned.
    assert!(row.kappa.unwrap().abs() < 1e-12);
    assert!(rep.warnings[0].contains("below 0.6"), "{:?}", rep.warnings);
}

fn export_args(run: &Path, tasks: &Path, out: &Path, fraction: f64, seed: u64) -> ReviewArgs {
    ReviewArgs {
        command: ReviewCommand::Export(ReviewExportArgs {
            run: run.into(),
            sample: SampleArgs {
                fraction,
                // The sample's size here is the fraction's alone (the minimum has its own test).
                min_items: 1,
                seed,
                rubric: None,
                tasks: Some(tasks.into()),
            },
            out: Some(out.into()),
        }),
    }
}

#[tokio::test]
async fn review_export_is_blind_seeded_and_import_measures_agreement() {
    let tmp = tempfile::tempdir().unwrap();
    let run = make_run(tmp.path(), "run", "plain", 4);
    let tasks = tmp.path().join("tasks");
    judge::run(judge_args(&run, &tasks, false), &factory)
        .await
        .unwrap();

    let out1 = tmp.path().join("review1");
    let ReviewOutcome::Exported(e) =
        review::run(export_args(&run, &tasks, &out1, 0.25, 7)).unwrap()
    else {
        panic!()
    };
    assert_eq!((e.eligible, e.sampled, e.tasks), (11, 3, 3));
    let out2 = tmp.path().join("review2");
    review::run(export_args(&run, &tasks, &out2, 0.25, 7)).unwrap();
    for f in ["blind/items.jsonl", "blind/form.html"] {
        let a = std::fs::read_to_string(out1.join(f)).unwrap();
        assert_eq!(
            a,
            std::fs::read_to_string(out2.join(f)).unwrap(),
            "{f} is reproducible"
        );
        // Blind: no model, agent, run or judge names anywhere in what reviewers get.
        let lower = a.to_lowercase();
        for secret in [
            "secret-model-x",
            "openai",
            "rival-agent",
            "/opt/agents",
            "run-2026-hush",
            "scripted:a",
            "scripted:b",
            "nab-agent",
        ] {
            assert!(!lower.contains(secret), "{f} leaks {secret}");
        }
        assert!(
            a.contains("[redacted]"),
            "{f}: names inside the diff were redacted"
        );
    }
    let html = std::fs::read_to_string(out1.join("blind/form.html")).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("src="),
        "the form works offline"
    );
    assert!(
        html.contains("name=\"item-001__d__readability\"") && html.contains("Download verdicts")
    );

    // Full sample for the agreement test; the human agrees with judge a.
    let out = tmp.path().join("review");
    review::run(export_args(&run, &tasks, &out, 1.0, 3)).unwrap();
    let key: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("review-key.json")).unwrap())
            .unwrap();
    let mut verdicts = String::new();
    for it in key["items"].as_array().unwrap() {
        let t: usize = it["task_id"]
            .as_str()
            .unwrap()
            .trim_start_matches("task-")
            .parse()
            .unwrap();
        let q = quality(t, it["trial"].as_u64().unwrap() as u32);
        verdicts.push_str(&format!(
            "{{\"item\":\"{}\",\"reviewer\":\"r\",\"scores\":{{\"readability\":{q},\"error_handling\":{q}}},\"vetoes\":{{\"tests_tampered\":false}},\"notes\":\"\"}}\n",
            it["item"].as_str().unwrap()
        ));
    }
    let vfile = out.join("verdicts.jsonl");
    std::fs::write(&vfile, &verdicts).unwrap();
    let import = |threshold| ReviewArgs {
        command: ReviewCommand::Import(ReviewImportArgs {
            file: vfile.clone(),
            export: None,
            threshold,
            bootstrap: 500,
            seed: 1,
        }),
    };
    let ReviewOutcome::Imported(rep) = review::run(import(0.6)).unwrap() else {
        panic!()
    };
    assert_eq!(rep.items, 11);
    let row = |judge: &str, id: &str| {
        rep.rows
            .iter()
            .find(|r| r.judge == judge && r.id == id)
            .unwrap()
    };
    assert_eq!(
        (
            row("scripted:a", "readability").kappa,
            row("scripted:a", "readability").percent_agreement
        ),
        (Some(1.0), Some(1.0))
    );
    assert_eq!(row("scripted:a", "error_handling").kappa, Some(1.0));
    // Judge b says 3 throughout: agreement no better than chance, κ = 0, and a warning.
    let b = row("scripted:b", "error_handling");
    assert!(b.kappa.unwrap().abs() < 1e-12, "{b:?}");
    assert!(
        rep.warnings.iter().any(|w| w.contains("scripted:b")
            && w.contains("error_handling")
            && w.contains("below 0.6")),
        "{:?}",
        rep.warnings
    );
    // Vetoes all false on both sides: undefined kappa, warned about.
    assert_eq!(row("scripted:a", "tests_tampered").kappa, None);
    assert!(
        rep.warnings
            .iter()
            .any(|w| w.contains("tests_tampered") && w.contains("undefined"))
    );
    assert!(
        !rep.warnings
            .iter()
            .any(|w| w.contains("scripted:a") && w.contains("readability"))
    );
    assert!(
        rep.render_markdown()
            .contains("| scripted:a | dimension | readability | 11 | 1.000 | 1.000 |")
    );

    // A bad verdict line is reported with its line number and field.
    std::fs::write(
        &vfile,
        format!(
            "{}{{\"item\":\"item-001\",\"scores\":{{\"readability\":\"4\"}}}}\n",
            verdicts.lines().nth(1).unwrap().to_owned() + "\n"
        ),
    )
    .unwrap();
    let err = review::run(import(0.6)).err().unwrap().to_string();
    assert!(
        err.contains("verdicts.jsonl:2") && err.contains("is a string"),
        "{err}"
    );
}

/// `scripted:pair`'s answers, counting the calls and, at each, how many complete lines the
/// pairs file already holds.
fn counting_factory(
    calls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    lines_seen: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
    pairs: PathBuf,
) -> impl Fn(&str) -> anyhow::Result<Box<dyn JudgeModel>> + Sync {
    move |spec: &str| {
        let (calls, lines_seen, pairs) = (calls.clone(), lines_seen.clone(), pairs.clone());
        Ok(Box::new(ScriptedJudge::deciding(spec, move |m| {
            calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let text = std::fs::read_to_string(&pairs).unwrap_or_default();
            lines_seen.lock().unwrap().push(text.matches('\n').count());
            prefer_good(m)
        })) as Box<dyn JudgeModel>)
    }
}

/// Judges the pairs of `root`'s base and cand runs with the `scripted:pair` judge that
/// `factory` makes, appending them to `out`.
async fn judge_pairs_in(
    root: &Path,
    out: &Path,
    factory: nab_judges::ModelFactory<'_>,
) -> anyhow::Result<CompareSummary> {
    let args = PairwiseArgs {
        judges: vec!["scripted:pair".into()],
        tasks: Some(root.join("tasks")),
        ..PairwiseArgs::default()
    };
    judge_pairs(
        &args,
        &root.join("base"),
        &root.join("cand"),
        Some(out),
        factory,
    )
    .await
}

/// A base run ("meh") and a candidate ("GOOD") of `tasks` tasks in a temporary
/// folder, the pairs file to judge them into, and what [`counting_factory`]'s judge counts.
struct CountedPairs {
    tmp: tempfile::TempDir,
    out: PathBuf,
    calls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    seen: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
}

impl CountedPairs {
    fn new(tasks: usize) -> CountedPairs {
        let tmp = tempfile::tempdir().unwrap();
        make_run(tmp.path(), "base", "meh", tasks);
        make_run(tmp.path(), "cand", "GOOD", tasks);
        let out = tmp.path().join(nab_protocol::PAIRWISE_FILE);
        CountedPairs {
            tmp,
            out,
            calls: Default::default(),
            seen: Default::default(),
        }
    }

    /// [`judge_pairs_in`] with the counting judge.
    async fn judge(&self) -> anyhow::Result<CompareSummary> {
        let factory = counting_factory(self.calls.clone(), self.seen.clone(), self.out.clone());
        judge_pairs_in(self.tmp.path(), &self.out, &factory).await
    }
}

/// Each pair is on disk as soon as it is judged; a run stopped mid-write (a torn last line)
/// resumes: the complete lines are not judged again, the torn pair is, and the file ends as
/// one complete line per pair.
#[tokio::test]
async fn compare_appends_pairs_as_judged_and_resumes_after_a_torn_line() {
    use std::sync::atomic::Ordering;
    let pairs = CountedPairs::new(3);
    let CountedPairs {
        out, calls, seen, ..
    } = &pairs;

    let first = pairs.judge().await.unwrap();
    assert_eq!((first.pairs.len(), first.resumed), (8, 0));
    assert_eq!(calls.load(Ordering::SeqCst), 16, "8 pairs, both orders");
    // Both orders of pair k were asked with the k-1 pairs before it already written.
    let seen_first: Vec<usize> = seen.lock().unwrap().clone();
    assert_eq!(seen_first, (0..8).flat_map(|k| [k, k]).collect::<Vec<_>>());
    let full = std::fs::read_to_string(out).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 8);

    // Stopped while writing the fourth line: three complete lines and half of one.
    let torn = format!(
        "{}\n{}",
        lines[..3].join("\n"),
        &lines[3][..lines[3].len() / 2]
    );
    std::fs::write(out, &torn).unwrap();
    calls.store(0, Ordering::SeqCst);
    let again = pairs.judge().await.unwrap();
    assert_eq!(
        calls.load(Ordering::SeqCst),
        10,
        "only the 5 pairs not on disk"
    );
    assert_eq!((again.pairs.len(), again.resumed), (8, 3));
    assert!(
        again
            .markdown
            .contains("3 of the 8 judged pairs were read back")
    );
    let r = &again.reports[0].1;
    assert_eq!((r.wins, r.n), (8, 8), "the same verdicts as the whole run");
    let text = std::fs::read_to_string(out).unwrap();
    assert!(text.ends_with('\n'));
    let keys: std::collections::BTreeSet<(String, u64)> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("every line whole");
            (
                v["task_id"].as_str().unwrap().to_owned(),
                v["trial"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!((text.lines().count(), keys.len()), (8, 8), "{text}");

    // Nothing left to judge: a third run asks nobody.
    calls.store(0, Ordering::SeqCst);
    let done = pairs.judge().await.unwrap();
    assert_eq!((calls.load(Ordering::SeqCst), done.resumed), (0, 8));
    assert_eq!(std::fs::read_to_string(out).unwrap(), text);
}

/// A pairs file written for another run pair is refused before any judge is asked, and
/// left as it was.
#[tokio::test]
async fn compare_refuses_a_pairs_file_of_another_run_pair() {
    use std::sync::atomic::Ordering;
    let pairs = CountedPairs::new(2);
    let CountedPairs { out, calls, .. } = &pairs;
    pairs.judge().await.unwrap();
    let good = std::fs::read_to_string(out).unwrap();

    // The same file, but its second line judged on another candidate run.
    let mut lines: Vec<String> = good.lines().map(str::to_owned).collect();
    lines[1] = lines[1].replace(
        &format!("\"candidate_run\":\"{RUN_ID}\""),
        "\"candidate_run\":\"run-other\"",
    );
    assert!(lines[1].contains("run-other"));
    let forged = format!("{}\n", lines.join("\n"));
    std::fs::write(out, &forged).unwrap();
    calls.store(0, Ordering::SeqCst);
    let err = pairs.judge().await.unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("pairwise.jsonl:2:"), "names the line: {msg}");
    assert!(msg.contains("run-other"), "{msg}");
    assert!(msg.contains("refusing to mix"), "{msg}");
    assert_eq!(calls.load(Ordering::SeqCst), 0, "no judge asked");
    assert_eq!(
        std::fs::read_to_string(out).unwrap(),
        forged,
        "left as it was"
    );

    // Not a pairs file at all: refused too, naming the line.
    std::fs::write(out, "{\"task_id\":\"task-0\",\"winner\":\"candidate\"}\n").unwrap();
    let msg = format!("{:#}", pairs.judge().await.unwrap_err());
    assert!(msg.contains("pairwise.jsonl:1:"), "{msg}");
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}
