//! `nab leaderboard` on run folders written to disk: hand-computed rows, refusing mixed
//! suites, sweep folders, and hostile run folders.

use nab_protocol::{RESULTS_FILE, RunMeta};
use nab_protocol::{TrialRecord, TrialStatus};
use nab_reports::leaderboard::row::Row;
use nab_reports::leaderboard::{self, Options};
use nab_reports::{Leaderboard, write_leaderboard};
use std::path::{Path, PathBuf};

const HASH: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";

fn meta(agent: &str, model: &str, ids: &[&str], hash: Option<&str>) -> RunMeta {
    RunMeta {
        run_id: Some(format!("{agent}-{model}")),
        agent: Some(agent.into()),
        model: Some(model.into()),
        task_ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        tasks_hash: hash.map(str::to_owned),
        started_at: Some("2026-11-30T04:00:00.000Z".into()),
        finished_at: Some("2026-11-30T05:00:00.000Z".into()),
        ..RunMeta::default()
    }
}

/// One trial: `s` is P(assed), F(ailed) or E(rror).
fn trial(m: &RunMeta, task: &str, category: &str, n: u32, s: char) -> TrialRecord {
    let mut r = TrialRecord::new(
        m.run_id.as_deref().unwrap_or("r"),
        task,
        category,
        n,
        m.agent.as_deref().unwrap_or("a"),
    );
    r.model = m.model.clone();
    r.outcome.status = match s {
        'P' => TrialStatus::Passed,
        'F' => TrialStatus::Failed,
        _ => TrialStatus::Error,
    };
    r.outcome.reward = f64::from(u8::from(s == 'P'));
    r.outcome.agent_s = 10.0;
    r.usage.input_tokens = Some(100);
    r.usage.output_tokens = Some(10);
    r
}

fn write(dir: &Path, m: &RunMeta, recs: &[TrialRecord]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    nab_protocol::write_jsonl_atomic(&dir.join(RESULTS_FILE), recs).unwrap();
    m.write(dir).unwrap();
    dir.to_owned()
}

/// Per task: (id, category, verdicts).
fn run(dir: &Path, m: &RunMeta, tasks: &[(&str, &str, &str)]) -> (PathBuf, Vec<TrialRecord>) {
    let recs: Vec<TrialRecord> = tasks
        .iter()
        .flat_map(|(id, cat, v)| {
            v.chars()
                .enumerate()
                .map(|(n, s)| trial(m, id, cat, n as u32, s))
                .collect::<Vec<_>>()
        })
        .collect();
    (write(dir, m, &recs), recs)
}

const IDS: [&str; 4] = ["t1", "t2", "t3", "t4"];

/// Two runs of 4 tasks × 2 trials (see the hand computation in the test).
fn two_runs(root: &Path) -> (PathBuf, PathBuf) {
    let ma = meta("nab-agent", "model-a", &IDS, Some(HASH));
    let a: Vec<TrialRecord> = [
        ("t1", "x", "PP"),
        ("t2", "x", "PF"),
        ("t3", "y", "FF"),
        ("t4", "y", "PE"),
    ]
    .iter()
    .flat_map(|(id, cat, v)| {
        v.chars()
            .enumerate()
            .map(|(n, s)| {
                let mut r = trial(&ma, id, cat, n as u32, s);
                r.usage.cost_usd = Some(if (*id, n) == ("t1", 0) {
                    0.03
                } else if s == 'E' {
                    0.005
                } else {
                    0.01
                });
                r
            })
            .collect::<Vec<_>>()
    })
    .collect();
    let a = write(&root.join("a"), &ma, &a);
    let mb = meta("nab-agent", "model-b", &IDS, Some(HASH));
    let b: Vec<TrialRecord> = [
        ("t1", "x", "PF"),
        ("t2", "x", "FF"),
        ("t3", "y", "FF"),
        ("t4", "y", "PP"),
    ]
    .iter()
    .flat_map(|(id, cat, v)| {
        v.chars()
            .enumerate()
            .map(|(n, s)| {
                let mut r = trial(&mb, id, cat, n as u32, s);
                // No cost recorded (no --prices): shown as unknown, never as $0.
                r.usage.input_tokens = Some(if (*id, n) == ("t4", 1) { 500 } else { 300 });
                r.usage.output_tokens = Some(0);
                r
            })
            .collect::<Vec<_>>()
    })
    .collect();
    let b = write(&root.join("b"), &mb, &b);
    (a, b)
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn every_column_matches_the_hand_computed_values() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(tmp.path());
    let board = leaderboard::build(&[b, a], &Options::default()).unwrap();
    assert_eq!(board.common_tasks, IDS);
    assert!(board.mixed.is_empty() && board.excluded_tasks.is_empty());
    let (ra, rb) = (&board.rows[0], &board.rows[1]);
    assert_eq!(ra.label, "nab-agent · model-a");
    // Every trial counts, an error as not passed. A: per-task rates 1, ½, 0, ½ (t4's error
    // trial did not pass) → 2/4. B: ½, 0, 0, 1 → 1.5/4.
    assert!(close(ra.pass_rate, 0.5) && close(rb.pass_rate, 0.375));
    // Beside it, over scored trials only: A 1, ½, 0, 1 → 2.5/4.
    assert!(close(ra.scored_pass_rate, 0.625));
    assert_eq!(ra.tasks_with_errors, ["t4"], "the row is marked");
    assert!(rb.tasks_with_errors.is_empty());
    assert_eq!(
        (
            ra.tasks,
            ra.common_trials,
            ra.scored_trials,
            ra.passed_trials
        ),
        (4, 8, 7, 4)
    );
    let ci = nab_reports::wilson(2.0, 4.0, nab_reports::Z95).unwrap();
    assert_eq!(ra.pass_rate_ci, Some(ci));
    // Every common task has 2 trials in every run: k = 1, 2, each over all 4 tasks.
    assert_eq!(board.headline_k, Some(2));
    assert!(board.k_sets.iter().all(|k| k.tasks == 4));
    // A pass@2 = (1 + 1 + 0 + 1)/4, pass^2 = (1 + 0 + 0 + 0)/4; B: (1 + 0 + 0 + 1)/4, ¼.
    assert!(close(ra.pass_at(2).unwrap().value, 0.75));
    assert!(close(ra.pass_hat(2).unwrap().value, 0.25));
    assert!(close(rb.pass_at(2).unwrap().value, 0.5));
    assert!(close(rb.pass_hat(2).unwrap().value, 0.25));
    assert!(close(ra.pass_at(1).unwrap().value, 0.5));
    // Categories (on the same tasks): A x = (1 + ½)/2, y = (0 + ½)/2; B x = ¼, y = ½.
    let cat = |r: &Row, c: &str| {
        r.categories
            .iter()
            .find(|x| x.category == c)
            .unwrap()
            .pass_rate
    };
    assert!(close(cat(ra, "x"), 0.75) && close(cat(ra, "y"), 0.25));
    assert!(close(cat(rb, "x"), 0.25) && close(cat(rb, "y"), 0.5));
    // Tokens per task (scored trials): A 110 everywhere; B task means 300, 300, 300, 400.
    assert!(close(ra.tokens_per_task, 110.0) && close(rb.tokens_per_task, 325.0));
    // Cost per task, errors included (they were paid for): A task means .02, .01, .01,
    // (.01 + .005)/2 → .011875; the whole run paid .03 + 6·.01 + .005 = .095, over 4
    // passes: .02375 per solved task. B has no cost: unknown.
    assert!(
        close(ra.cost_per_task_usd, 0.011875),
        "{:?}",
        ra.cost_per_task_usd
    );
    assert!(close(ra.total_cost_usd, 0.095));
    let per_solved = ra.cost_per_solved.unwrap();
    assert!(close(per_solved.value, 0.02375), "{per_solved:?}");
    assert_eq!((ra.cost_known_trials, rb.cost_known_trials), (8, 0));
    assert_eq!((rb.cost_per_task_usd, rb.total_cost_usd), (None, None));
    assert!(rb.cost_per_solved.is_none());
    assert!(close(ra.agent_s_per_task, 10.0) && close(ra.wall_s, 3600.0));
    assert!(close(ra.error_rate, 1.0 / 8.0) && close(rb.error_rate, 0.0));
    assert_eq!((ra.error_trials, ra.trials), (1, 8));
    // Matrix: d = A − B per task = [½, ½, 0, −½] (the difference of the rows' rates,
    // 0.125). Three non-zero halves: P(T ≥ ½) = ½, two-sided p = 1. Not significant, so the
    // simultaneous rank intervals cannot tell the rows apart: both [1, 2].
    let (sign, p) = board.significance.between(0, 1).unwrap();
    assert_eq!(sign, 1.0);
    assert!(close(p.p_value, 1.0), "{p:?}");
    assert_eq!(p.p_holm, p.p_value);
    assert!(!p.significant && close(p.mean_diff, 0.125));
    assert!(close(
        p.mean_diff,
        ra.pass_rate.unwrap() - rb.pass_rate.unwrap()
    ));
    assert_eq!((ra.rank.rank, ra.rank.low, ra.rank.high), (1, 1, 2));
    assert_eq!((rb.rank.rank, rb.rank.low, rb.rank.high), (2, 1, 2));

    // The three files, and the Markdown shows "—" where the cost is unknown.
    let out = write_leaderboard(&board, &tmp.path().join("lb")).unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out.json).unwrap()).unwrap();
    assert_eq!(json["rows"][0]["cost_per_task_usd"], 0.011875);
    assert!(json["rows"][1]["cost_per_task_usd"].is_null());
    let md = std::fs::read_to_string(&out.markdown).unwrap();
    let b_line = md.lines().find(|l| l.contains("model-b")).unwrap();
    assert!(b_line.contains("| — |"), "{b_line}");
    assert!(md.contains("$0.0119"), "{md}");
    assert!(
        md.contains("## Common tasks (4)") && md.contains("t1, t2, t3, t4"),
        "{md}"
    );
    assert!(md.contains("simultaneous"), "{md}");
    let html = std::fs::read_to_string(&out.html).unwrap();
    assert!(html.contains("default-src 'none'"));
    assert!(html.contains("id=\"common-tasks\"") && html.contains("id=\"rank-meaning\""));
    assert!(
        html.contains("data-col=\"error_mark\""),
        "the erroring row is marked"
    );
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
}

#[test]
fn the_same_seed_gives_the_same_leaderboard_json() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(tmp.path());
    let dirs = [a, b];
    let one = leaderboard::build(&dirs, &Options::default()).unwrap();
    let two = leaderboard::build(&dirs, &Options::default()).unwrap();
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&two).unwrap()
    );
}

#[test]
fn runs_of_different_suites_or_task_sets_are_refused_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, _) = two_runs(tmp.path());
    let other_hash = HASH.replace('1', "2");
    let tasks = [
        ("t1", "x", "PP"),
        ("t2", "x", "PF"),
        ("t3", "y", "FF"),
        ("t4", "y", "PP"),
    ];
    let (newer, _) = run(
        &tmp.path().join("newer"),
        &meta("nab-agent", "model-c", &IDS, Some(&other_hash)),
        &tasks,
    );
    let e = leaderboard::build(&[a.clone(), newer.clone()], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("different suite versions"), "{e}");
    assert!(e.contains(&other_hash) && e.contains("model-c"), "{e}");
    assert!(e.contains("--allow-mixed"), "{e}");

    let (fewer, _) = run(
        &tmp.path().join("fewer"),
        &meta("nab-agent", "model-d", &IDS[..3], Some(HASH)),
        &tasks[..3],
    );
    let e = leaderboard::build(&[a.clone(), fewer.clone()], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("different task sets") && e.contains("only in nab-agent · model-a: t4"),
        "{e}"
    );

    // Allowed: ranked on the shared tasks, and every output says so.
    let allow = Options {
        allow_mixed: true,
        ..Options::default()
    };
    let board = leaderboard::build(&[a, newer, fewer], &allow).unwrap();
    assert_eq!(board.mixed.len(), 2, "{:?}", board.mixed);
    assert_eq!(board.common_tasks, ["t1", "t2", "t3"]);
    assert_eq!(board.excluded_tasks[0].task_id, "t4");
    let out = write_leaderboard(&board, &tmp.path().join("lb")).unwrap();
    let html = std::fs::read_to_string(&out.html).unwrap();
    assert!(html.contains("id=\"mixed\"") && html.contains("--allow-mixed"));
    let md = std::fs::read_to_string(&out.markdown).unwrap();
    assert!(md.contains("Mixed suites, ranked anyway"), "{md}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out.json).unwrap()).unwrap();
    assert_eq!(json["mixed"].as_array().unwrap().len(), 2);
}

#[test]
fn subsets_of_one_suite_rank_on_their_common_tasks_and_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let versioned = |model: &str, ids: &[&str], version: &str| {
        let mut m = meta(
            "nab-agent",
            model,
            ids,
            Some(&format!("sha256:{}", ids.len())),
        );
        m.task_hashes = ids
            .iter()
            .map(|id| ((*id).to_owned(), format!("sha256:{id}-{version}")))
            .collect();
        m
    };
    let tasks = [
        ("t1", "x", "PP"),
        ("t2", "x", "PF"),
        ("t3", "y", "FF"),
        ("t4", "y", "PP"),
    ];
    let (all, _) = run(
        &tmp.path().join("all"),
        &versioned("model-a", &IDS, "1"),
        &tasks,
    );
    let (part, _) = run(
        &tmp.path().join("part"),
        &versioned("model-b", &IDS[..2], "1"),
        &tasks[..2],
    );
    // Not mixed: ranked without --allow-mixed on the two tasks both ran, and said so.
    let board = leaderboard::build(&[all.clone(), part.clone()], &Options::default()).unwrap();
    assert!(board.mixed.is_empty(), "{:?}", board.mixed);
    assert_eq!(board.common_tasks, ["t1", "t2"]);
    let note = board
        .notes
        .iter()
        .find(|n| n.contains("different subsets of one suite"))
        .unwrap_or_else(|| panic!("{:?}", board.notes));
    assert!(note.contains("ran 4") && note.contains("ran 2"), "{note}");
    // The same subset with one shared task edited is another suite: refused, and named.
    let (edited, _) = run(
        &tmp.path().join("edited"),
        &{
            let mut m = versioned("model-c", &IDS[..2], "1");
            m.task_hashes.insert("t2".into(), "sha256:t2-2".into());
            m
        },
        &tasks[..2],
    );
    let e = leaderboard::build(&[all, edited], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("different versions of the same tasks") && e.contains("t2"),
        "{e}"
    );
}

#[test]
fn a_sweep_folder_counts_as_all_its_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = tmp.path().join("sweep");
    two_runs(&sweep);
    // A run of the sweep that has not started yet.
    std::fs::create_dir_all(sweep.join("c")).unwrap();
    meta("nab-agent", "model-c", &IDS, Some(HASH))
        .write(&sweep.join("c"))
        .unwrap();
    let board = leaderboard::build(&[sweep], &Options::default()).unwrap();
    assert_eq!(board.rows.len(), 2);
    assert!(
        board
            .notes
            .iter()
            .any(|n| n.contains("without results yet")),
        "{:?}",
        board.notes
    );
}

#[test]
fn a_hostile_run_folder_is_read_safely() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, _) = two_runs(tmp.path());
    let evil_model = "<script>window.__pwned=1</script>\"><img src=x onerror=alert(1)>|**bold**";
    let evil_task = "t<script>alert('task')</script>";
    let m = meta("nab-agent", evil_model, &IDS, Some(HASH));
    let (evil, mut recs) = run(
        &tmp.path().join("evil"),
        &m,
        &[
            ("t1", "x", "PP"),
            ("t2", "x", "FF"),
            ("t3", "y", "PF"),
            ("t4", "y", "PP"),
        ],
    );
    // A task only this run has (so it is listed as left out), named with markup.
    recs.push(trial(&m, evil_task, "<b>cat</b>", 0, 'P'));
    let mut text = String::new();
    for r in &recs {
        text.push_str(&serde_json::to_string(r).unwrap());
        text.push('\n');
    }
    // The writer died mid-line.
    text.push_str("{\"v\":1,\"run_id\":\"r\",\"task_id\":\"t1\",\"sta");
    std::fs::write(evil.join(RESULTS_FILE), text).unwrap();

    let allow = Options {
        allow_mixed: true,
        ..Options::default()
    };
    let board: Leaderboard = leaderboard::build(&[a.clone(), evil.clone()], &allow).unwrap();
    assert!(
        board.notes.iter().any(|n| n.contains("cut off")),
        "{:?}",
        board.notes
    );
    assert!(board.rows.iter().any(|r| r.truncated_tail));
    assert!(board.excluded_tasks.iter().any(|e| e.task_id == evil_task));
    let out = write_leaderboard(&board, &tmp.path().join("lb")).unwrap();
    let html = std::fs::read_to_string(&out.html).unwrap();
    for raw in [
        "<script>window",
        "<img src=x",
        "<script>alert",
        "<b>cat</b>",
    ] {
        assert!(!html.contains(raw), "unescaped {raw:?} in the page");
    }
    assert!(html.contains("&lt;script&gt;window.__pwned=1&lt;&#x2f;script&gt;"));
    let md = std::fs::read_to_string(&out.markdown).unwrap();
    for raw in ["<script>", "<img", "|**bold**"] {
        assert!(
            !md.contains(raw),
            "unescaped {raw:?} in the Markdown:\n{md}"
        );
    }
    // The JSON keeps the names whole (JSON-escaped by serde, never interpreted).
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out.json).unwrap()).unwrap();
    assert!(
        json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["model"] == evil_model)
    );

    // A name of a megabyte is cut on the pages; the page stays small.
    let huge = "m".repeat(1 << 20);
    let (big, _) = run(
        &tmp.path().join("big"),
        &meta("nab-agent", &huge, &IDS, Some(HASH)),
        &[
            ("t1", "x", "PP"),
            ("t2", "x", "FF"),
            ("t3", "y", "PF"),
            ("t4", "y", "PP"),
        ],
    );
    let board = leaderboard::build(&[a.clone(), big.clone()], &Options::default()).unwrap();
    let out = write_leaderboard(&board, &tmp.path().join("lb2")).unwrap();
    let html_len = std::fs::metadata(&out.html).unwrap().len();
    assert!(html_len < 200_000, "{html_len} bytes");

    // A results.jsonl of 300 MiB (sparse: no disk used) is refused before it is read, with
    // its path; so is a results.jsonl that is a link to a device.
    let huge_results = big.join(RESULTS_FILE);
    std::fs::File::create(&huge_results)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let e = leaderboard::build(&[a.clone(), big.clone()], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&huge_results.display().to_string()) && e.contains("over the limit"),
        "{e}"
    );
    std::fs::remove_file(&huge_results).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &huge_results).unwrap();
    let e = leaderboard::build(&[a, big], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn a_bad_line_in_the_middle_is_an_error_naming_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(tmp.path());
    let path = b.join(RESULTS_FILE);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "{not json");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let e = leaderboard::build(&[a, b], &Options::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("results.jsonl:3"), "{e}");
}

/// Issue 35's first finding: two agents with the same outcomes, one with its failures
/// relabelled as errors. Errors count as not passed, so the two rows have the same rate and
/// share the rank; the erroring one is marked, and no cell calls them different.
#[test]
fn relabelling_failures_as_errors_never_lifts_a_row_or_its_rank() {
    let tmp = tempfile::tempdir().unwrap();
    let ids: Vec<String> = (0..14).map(|i| format!("t{i:02}")).collect();
    let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let verdicts: Vec<String> = (0..14)
        .map(|i| ["PPP", "PFF", "FFF", "PPF", "FFP", "PPP", "FPF"][i % 7].to_owned())
        .collect();
    let tasks = |gamed: bool| -> Vec<(&str, &str, String)> {
        id_refs
            .iter()
            .zip(&verdicts)
            .map(|(id, v)| {
                (
                    *id,
                    "x",
                    if gamed {
                        v.replace('F', "E")
                    } else {
                        v.clone()
                    },
                )
            })
            .collect()
    };
    let write_run = |name: &str, gamed: bool| {
        let m = meta("agent", name, &id_refs, Some(HASH));
        let t = tasks(gamed);
        let t: Vec<(&str, &str, &str)> = t.iter().map(|(a, b, c)| (*a, *b, c.as_str())).collect();
        run(&tmp.path().join(name), &m, &t).0
    };
    let honest = write_run("honest", false);
    let gamed = write_run("gamed", true);
    let board = leaderboard::build(&[honest, gamed], &Options::default()).unwrap();
    let row = |m: &str| {
        board
            .rows
            .iter()
            .find(|r| r.model.as_deref() == Some(m))
            .unwrap()
    };
    let (h, g) = (row("honest"), row("gamed"));
    assert_eq!(h.pass_rate, g.pass_rate, "the headline is the same");
    assert_eq!(h.rank.rank, g.rank.rank, "they share the rank");
    assert!(
        g.scored_pass_rate > h.scored_pass_rate,
        "only the scored-only figure rises"
    );
    assert!(!g.tasks_with_errors.is_empty() && h.tasks_with_errors.is_empty());
    let (_, p) = board.significance.between(0, 1).unwrap();
    assert_eq!(p.mean_diff, Some(0.0));
    assert!(!p.significant);
    assert_eq!((g.rank.low, g.rank.high), (1, 2));
}
