//! `nab export` on run folders written to disk: the three tables' rows and hand-computed
//! aggregates, CSV and Parquet holding the same columns and values, sweep folders, and
//! hostile run folders refused by name with nothing written.

use crate::common;
use nab_protocol::{RESULTS_FILE, RunMeta, TrialRecord, TrialStatus};
use nab_reports::export::{self, Format, TABLES};
use polars::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A CSV table: its header and its rows, each cell as text.
struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn read(path: &Path) -> Csv {
        let mut r = csv::Reader::from_path(path).unwrap();
        let header = r.headers().unwrap().iter().map(str::to_owned).collect();
        let rows = r
            .records()
            .map(|rec| rec.unwrap().iter().map(str::to_owned).collect())
            .collect();
        Csv { header, rows }
    }

    /// Row `i` as column name → cell.
    fn row(&self, i: usize) -> BTreeMap<&str, &str> {
        self.header
            .iter()
            .map(String::as_str)
            .zip(self.rows[i].iter().map(String::as_str))
            .collect()
    }

    fn column(&self, name: &str) -> Vec<&str> {
        let at = self.header.iter().position(|h| h == name).unwrap();
        self.rows.iter().map(|r| r[at].as_str()).collect()
    }
}

fn trial(run: &str, task: &str, n: u32, status: TrialStatus) -> TrialRecord {
    let mut r = TrialRecord::new(run, task, "bug-fix", n, "nab-agent");
    r.model = Some(format!("model-{run}"));
    r.outcome.status = status;
    r.outcome.reward = f64::from(u8::from(status == TrialStatus::Passed));
    r
}

fn write_run(dir: &Path, meta: &RunMeta, records: &[TrialRecord]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    nab_protocol::write_jsonl_atomic(&dir.join(RESULTS_FILE), records).unwrap();
    meta.write(dir).unwrap();
    dir.to_owned()
}

/// Run "a": t1 passed, passed (100 and 300 input tokens, $0.5 and $1.5, 10 s and 30 s);
/// t2 failed (50 tokens, $0.25, 5 s), error (1000 input tokens and $0.75 spent before the
/// provider gave up, no output count). A second line for t2 trial 0 (a resumed run's retry)
/// replaces the first.
fn tiny_run(dir: &Path) -> PathBuf {
    let mut recs = Vec::new();
    for (n, tokens, cost, secs) in [(0, 100, 0.5, 10.0), (1, 300, 1.5, 30.0)] {
        let mut r = trial("a", "t1", n, TrialStatus::Passed);
        r.usage.input_tokens = Some(tokens);
        r.usage.output_tokens = Some(tokens / 10);
        r.usage.cost_usd = Some(cost);
        r.outcome.agent_s = secs;
        r.behaviour.violations = vec!["no_wrappers".into(), "say \"hi\", then go".into()];
        recs.push(r);
    }
    recs.push(trial("a", "t2", 0, TrialStatus::Error));
    let mut failed = trial("a", "t2", 0, TrialStatus::Failed);
    failed.usage.input_tokens = Some(50);
    failed.usage.output_tokens = Some(5);
    failed.usage.cost_usd = Some(0.25);
    failed.outcome.agent_s = 5.0;
    failed.outcome.failure_reason = Some(nab_protocol::FailureReason::TestsFailed);
    recs.push(failed);
    let mut error = trial("a", "t2", 1, TrialStatus::Error);
    error.outcome.error = Some("provider: 503 after 8 retries".into());
    error.usage.input_tokens = Some(1000);
    error.usage.cost_usd = Some(0.75);
    error.outcome.error_kind = Some(nab_protocol::ErrorKind::Provider);
    recs.push(error);
    let meta = RunMeta {
        run_id: Some("a".into()),
        agent: Some("nab-agent".into()),
        model: Some("model-a".into()),
        started_at: Some("2026-12-01T03:00:00.000Z".into()),
        finished_at: Some("2026-12-01T04:00:00.000Z".into()),
        ..RunMeta::default()
    };
    write_run(dir, &meta, &recs)
}

#[test]
fn a_tiny_run_gives_the_hand_computed_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tiny_run(&tmp.path().join("a"));
    let out = tmp.path().join("out");
    let done = export::export(std::slice::from_ref(&run), &out, Format::Csv).unwrap();
    assert_eq!(done.trials, 4, "the retried trial counts once");
    assert_eq!(
        done.written,
        TABLES.map(|t| out.join(format!("{t}.csv"))).to_vec()
    );

    let trials = Csv::read(&out.join("trials.csv"));
    assert_eq!(trials.rows.len(), 4);
    assert_eq!(&trials.header[..3], ["run_dir", "run_id", "task_id"]);
    let t2 = trials.row(2);
    assert_eq!(
        (t2["task_id"], t2["trial"], t2["status"], t2["passed"]),
        ("t2", "0", "failed", "false"),
        "the retry's line, not the first"
    );
    assert_eq!(
        (t2["failure_reason"], t2["cost_usd"], t2["run_dir"]),
        ("tests_failed", "0.25", run.display().to_string().as_str())
    );
    let err = trials.row(3);
    assert_eq!(
        (err["passed"], err["error_kind"], err["output_tokens"]),
        ("", "provider", ""),
        "an error has no verdict and an absent count is empty, not 0"
    );
    assert_eq!(
        trials.row(0)["violations"],
        r#"["no_wrappers","say \"hi\", then go"]"#,
        "a list is a JSON array in one cell"
    );
    assert_eq!(trials.row(3)["violations"], "[]");

    let tasks = Csv::read(&out.join("tasks.csv"));
    assert_eq!(tasks.rows.len(), 2);
    let t1 = tasks.row(0);
    let want_t1 = [
        ("run_id", "a"),
        ("model", "model-a"),
        ("task_id", "t1"),
        ("trials", "2"),
        ("passed", "2"),
        ("failed", "0"),
        ("errors", "0"),
        ("pass_rate", "1"),
        ("status", "passed"),
        ("mean_input_tokens", "200"),
        ("mean_output_tokens", "20"),
        ("mean_cost_usd", "1"),
        ("mean_agent_s", "20"),
        ("quarantined", "false"),
    ];
    for (k, v) in want_t1 {
        assert_eq!(t1[k], v, "tasks.csv t1 {k}");
    }
    let t2 = tasks.row(1);
    let want_t2 = [
        ("trials", "2"),
        ("passed", "0"),
        ("failed", "1"),
        ("errors", "1"),
        ("pass_rate", "0"),
        ("scored_pass_rate", "0"),
        ("status", "failed"),
        // Tokens and time per scored trial (the failed one); cost per trial, the
        // error's included: it was paid for.
        ("mean_input_tokens", "50"),
        ("mean_agent_s", "5"),
        ("mean_cost_usd", "0.5"),
    ];
    for (k, v) in want_t2 {
        assert_eq!(t2[k], v, "tasks.csv t2 {k}");
    }

    let runs = Csv::read(&out.join("runs.csv"));
    assert_eq!(runs.rows.len(), 1);
    let r = runs.row(0);
    let want_run = [
        ("agent", "nab-agent"),
        ("started_at", "2026-12-01T03:00:00.000Z"),
        ("finished_at", "2026-12-01T04:00:00.000Z"),
        ("tasks", "2"),
        ("trials", "4"),
        ("passed", "2"),
        ("failed", "1"),
        ("errors", "1"),
        // Mean over tasks of each task's rate: (1 + 0) / 2.
        ("pass_rate", "0.5"),
        ("error_rate", "0.25"),
        // Sums over every trial, the error's included.
        ("input_tokens", "1450"),
        ("output_tokens", "45"),
        ("cost_usd", "3"),
        ("cost_known_trials", "4"),
        ("truncated_tail", "false"),
    ];
    for (k, v) in want_run {
        assert_eq!(r[k], v, "runs.csv {k}");
    }
    let (low, high): (f64, f64) = (
        r["pass_rate_low"].parse().unwrap(),
        r["pass_rate_high"].parse().unwrap(),
    );
    let ci = nab_reports::wilson(1.0, 2.0, nab_reports::Z95).unwrap();
    assert_eq!((low, high), (ci.low, ci.high), "Wilson over 2 tasks");
}

/// A cell of a Parquet column as the CSV writes it.
fn as_csv_text(v: AnyValue) -> String {
    match v {
        AnyValue::Null => String::new(),
        AnyValue::Boolean(b) => b.to_string(),
        AnyValue::String(s) => s.to_owned(),
        AnyValue::StringOwned(s) => s.to_string(),
        AnyValue::UInt32(n) => n.to_string(),
        AnyValue::UInt64(n) => n.to_string(),
        AnyValue::Int64(n) => n.to_string(),
        AnyValue::Float64(x) => x.to_string(),
        AnyValue::List(items) => {
            let items = items.str().unwrap();
            let items: Vec<String> = (0..items.len())
                .map(|j| items.get(j).unwrap().to_owned())
                .collect();
            serde_json::Value::from(items).to_string()
        }
        other => panic!("a column type the export does not write: {other:?}"),
    }
}

#[test]
fn csv_and_parquet_hold_the_same_columns_and_values() {
    let tmp = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for (name, seed) in [("one", 3), ("two", 4)] {
        let mut spec = common::spec(name, 6, 3, false);
        spec.seed = seed;
        spec.error_rate = 0.2;
        let recs = nab_reports::synth_records(&spec);
        runs.push(common::write(tmp.path(), name, &spec, &recs));
    }
    let (csv_out, pq_out) = (tmp.path().join("csv"), tmp.path().join("pq"));
    let c = export::export(&runs, &csv_out, Format::Csv).unwrap();
    let p = export::export(&runs, &pq_out, Format::Parquet).unwrap();
    assert_eq!((c.trials, p.trials), (36, 36));
    let want_rows = [36, 12, 2];
    let mut compared = 0;
    for (table, rows) in TABLES.iter().zip(want_rows) {
        let csv = Csv::read(&csv_out.join(format!("{table}.csv")));
        let df = ParquetReader::new(
            std::fs::File::open(pq_out.join(format!("{table}.parquet"))).unwrap(),
        )
        .finish()
        .unwrap();
        assert_eq!((csv.rows.len(), df.height()), (rows, rows), "{table}");
        let names: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|n| n.to_string())
            .collect();
        assert_eq!(
            csv.header, names,
            "{table}: the same columns in the same order"
        );
        for (name, col) in names.iter().zip(df.columns()) {
            let cells = csv.column(name);
            for (i, cell) in cells.iter().enumerate() {
                assert_eq!(
                    as_csv_text(col.get(i).unwrap()),
                    *cell,
                    "{table}.{name} row {i}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 36 * 40, "every cell was compared ({compared})");
    // Typed in Parquet: counts unsigned, rates floats, verdicts booleans, lists lists.
    let df = ParquetReader::new(std::fs::File::open(pq_out.join("trials.parquet")).unwrap())
        .finish()
        .unwrap();
    let dtype = |c: &str| df.column(c).unwrap().dtype().clone();
    assert_eq!(dtype("input_tokens"), DataType::UInt64);
    assert_eq!(dtype("passed"), DataType::Boolean);
    assert_eq!(dtype("cost_usd"), DataType::Float64);
    assert_eq!(
        dtype("tamper_flags"),
        DataType::List(Box::new(DataType::String))
    );
    // The judges are flattened as in results.parquet; every synthetic trial but an error has one.
    let status = df.column("status").unwrap().str().unwrap().clone();
    let errors = (0..status.len())
        .filter(|&i| status.get(i) == Some("error"))
        .count();
    assert!(errors > 0, "the runs have errors");
    assert_eq!(df.column("judge_score").unwrap().null_count(), errors);
}

#[test]
fn a_sweep_folder_expands_to_its_runs_and_a_torn_line_is_noted() {
    let tmp = tempfile::tempdir().unwrap();
    let sweep = tmp.path().join("sweep");
    let mut total = 0;
    for (name, tasks) in [("m1", 3), ("m2", 4)] {
        let spec = common::spec(name, tasks, 2, false);
        let recs = nab_reports::synth_records(&spec);
        total += recs.len();
        common::write(&sweep, name, &spec, &recs);
    }
    // An interrupted writer's last line, cut off: not a row, and said.
    let results = sweep.join("m2").join(RESULTS_FILE);
    let mut text = std::fs::read_to_string(&results).unwrap();
    text.push_str("{\"v\":1,\"run_id\":\"m2\",\"task");
    std::fs::write(&results, text).unwrap();
    let out = tmp.path().join("out");
    let done = export::export(std::slice::from_ref(&sweep), &out, Format::Csv).unwrap();
    assert_eq!(done.runs, [sweep.join("m1"), sweep.join("m2")]);
    assert_eq!(done.trials, total);
    assert!(
        done.notes
            .iter()
            .any(|n| n.contains(&results.display().to_string()) && n.contains("cut off")),
        "{:?}",
        done.notes
    );
    let trials = Csv::read(&out.join("trials.csv"));
    assert_eq!(trials.rows.len(), total);
    let run_ids: std::collections::BTreeSet<&str> = trials.column("run_id").into_iter().collect();
    assert_eq!(run_ids.into_iter().collect::<Vec<_>>(), ["m1", "m2"]);
    let runs = Csv::read(&out.join("runs.csv"));
    assert_eq!(runs.column("run_id"), ["m1", "m2"]);
    assert_eq!(runs.column("tasks"), ["3", "4"]);
    assert_eq!(runs.column("truncated_tail"), ["false", "true"]);
    assert_eq!(Csv::read(&out.join("tasks.csv")).rows.len(), 7);
}

#[test]
fn a_quarantined_task_is_a_marked_row_left_out_of_the_run_figures() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("q", 2, 2, false);
    let mut recs = nab_reports::synth_records(&spec);
    for r in &mut recs {
        r.outcome.status = TrialStatus::Passed;
    }
    let run = common::write(tmp.path(), "q", &spec, &recs);
    let quarantined = nab_reports::synth_task_id(1);
    std::fs::write(
        run.join("tasks/quarantine.yaml"),
        format!("- task: {quarantined}\n  reason: flaky oracle\n"),
    )
    .unwrap();
    let out = tmp.path().join("out");
    export::export(std::slice::from_ref(&run), &out, Format::Csv).unwrap();
    let trials = Csv::read(&out.join("trials.csv"));
    assert_eq!(trials.rows.len(), 4, "every trial is a row");
    let marks: Vec<(&str, &str)> = trials
        .column("task_id")
        .into_iter()
        .zip(trials.column("quarantined"))
        .collect();
    for (task, mark) in marks {
        assert_eq!(
            mark,
            if task == quarantined { "true" } else { "false" },
            "{task}"
        );
    }
    let runs = Csv::read(&out.join("runs.csv"));
    let r = runs.row(0);
    assert_eq!(
        (
            r["tasks"],
            r["trials"],
            r["quarantined_tasks"],
            r["quarantined_trials"]
        ),
        ("1", "2", "1", "2")
    );
}

/// Every file in `dir`, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Exporting `dirs` fails in both formats, naming `named` and saying `says`, and `out`
/// is left as it was.
fn refused(dirs: &[PathBuf], out: &Path, named: &Path, says: &str) {
    let before = files(out);
    for format in [Format::Csv, Format::Parquet] {
        let e = export::export(dirs, out, format).unwrap_err().to_string();
        assert!(
            e.contains(&named.display().to_string()) && e.contains(says),
            "{says}: {e}"
        );
        assert_eq!(
            files(out),
            before,
            "{says}: nothing written, nothing left behind"
        );
    }
}

#[test]
fn a_bad_input_is_named_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tiny_run(&tmp.path().join("good"));
    let out = tmp.path().join("out");
    // A previous export, which a failed one must leave as it was.
    export::export(std::slice::from_ref(&good), &out, Format::Csv).unwrap();
    assert_eq!(files(&out).len(), 3);

    let missing = tmp.path().join("missing");
    refused(
        &[good.clone(), missing.clone()],
        &out,
        &missing,
        "not a folder",
    );

    let bad = tmp.path().join("bad");
    let results = bad.join(RESULTS_FILE);
    let dirs = [good.clone(), bad.clone()];
    let fresh = || {
        let _ = std::fs::remove_dir_all(&bad);
        std::fs::create_dir_all(&bad).unwrap();
    };
    fresh();
    std::os::unix::fs::symlink("/dev/zero", &results).unwrap();
    refused(&dirs, &out, &results, "not a regular file");

    fresh();
    let made = std::process::Command::new("mkfifo").arg(&results).status();
    assert!(made.unwrap().success(), "mkfifo");
    refused(&dirs, &out, &results, "not a regular file");

    fresh();
    std::os::unix::fs::symlink(good.join(RESULTS_FILE), &results).unwrap();
    refused(&dirs, &out, &results, "symbolic link");

    fresh();
    let text = std::fs::read_to_string(good.join(RESULTS_FILE)).unwrap();
    std::fs::write(&results, format!("not json at all\n{text}")).unwrap();
    refused(&dirs, &out, &bad, "results.jsonl:1");
}

/// The column names `docs/src/reference/export-tables.md` lists under `## <table>`, in order.
fn documented_columns(page: &str, table: &str) -> Vec<String> {
    let section = page
        .split("\n## ")
        .find(|s| s.starts_with(&format!("{table}\n")))
        .unwrap_or_else(|| panic!("no section ## {table}"));
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_reference_page_lists_every_column_in_order() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src/reference/export-tables.md"),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tiny_run(&tmp.path().join("a"));
    let out = tmp.path().join("out");
    export::export(std::slice::from_ref(&run), &out, Format::Csv).unwrap();
    for table in TABLES {
        let header = Csv::read(&out.join(format!("{table}.csv"))).header;
        assert!(header.len() > 10, "{table}: {header:?}");
        assert_eq!(documented_columns(&page, table), header, "{table}");
    }
}
