//! leaderboard.html in a real headless Chromium (Debian's `chromium` package), as
//! report.html is tested in `browser.rs`: no console error, no network request, the
//! numbers in the DOM equal leaderboard.json, every column is there, sorting works, and a
//! model name or task id carrying markup stays text. Saves
//! `target/nab-artifacts/leaderboard.png`.

use crate::common;
use nab_reports::leaderboard::{self, Options};
use nab_reports::synth_records;
use nab_reports::write_leaderboard;

use nab_protocol::RunMeta;
use serde_json::Value;
use std::time::Duration;

fn pct(v: &Value) -> String {
    v.as_f64()
        .map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

const EVIL_MODEL: &str =
    "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">";
const EVIL_TASK: &str = "task-\"><script>window.__pwned=3</script>";

#[test]
fn the_leaderboard_renders_in_headless_chromium_offline_and_matches_leaderboard_json() {
    let tmp = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for (i, (model, seed)) in [
        ("model-large", 1u64),
        ("model-small", 2),
        (EVIL_MODEL, 3),
        ("model-mid", 4),
    ]
    .into_iter()
    .enumerate()
    {
        let mut spec = common::spec(&format!("run-{i}"), 28, 3, false);
        spec.model = model.into();
        spec.seed = seed;
        spec.error_rate = 0.04;
        spec.judged = false;
        let mut recs = synth_records(&spec);
        if i == 0 {
            // Only the first run was priced: the others show "—".
            for r in &mut recs {
                r.usage.cost_usd = Some(0.002 * (1 + r.trial) as f64);
            }
        }
        if i == 2 {
            let mut extra = recs[0].clone();
            extra.task_id = EVIL_TASK.into();
            recs.push(extra);
        }
        let dir = common::write(tmp.path(), &format!("run-{i}"), &spec, &recs);
        // Every run records the same suite except the last: ranked only with --allow-mixed.
        let mut meta = RunMeta::read(&dir).unwrap();
        meta.tasks_hash = Some(format!(
            "sha256:{}",
            if i == 3 { "b" } else { "a" }.repeat(64)
        ));
        meta.write(&dir).unwrap();
        dirs.push(dir);
    }
    let refused = leaderboard::build(&dirs, &Options::default()).unwrap_err();
    assert!(refused.to_string().contains("--allow-mixed"));
    let board = leaderboard::build(
        &dirs,
        &Options {
            allow_mixed: true,
            ..Options::default()
        },
    )
    .unwrap();
    let out = write_leaderboard(&board, &tmp.path().join("lb")).unwrap();
    let json: Value = serde_json::from_slice(&std::fs::read(&out.json).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(json["common_tasks"].as_array().unwrap().len(), 28);

    let page = common::chrome::WatchedTab::showing((1600, 1400), &out.html);
    let eval = |js: &str| page.eval(js);

    // Every row's numbers in the DOM equal leaderboard.json, as shown.
    let dom: Value = serde_json::from_str(
        eval(
            "JSON.stringify(Array.from(document.querySelectorAll('#tasks tbody tr')).map(tr => Object.fromEntries(Array.from(tr.querySelectorAll('[data-col]')).map(e => [e.dataset.col, e.textContent]))))",
        )
        .as_str()
        .unwrap(),
    )
    .unwrap();
    let k = json["headline_k"].as_u64().unwrap();
    assert!(
        k >= 2,
        "28 tasks × 3 trials, a few errors: pass@k beyond 1 is shown ({k})"
    );
    for (i, row) in rows.iter().enumerate() {
        let d = &dom[i];
        let text = |c: &str| {
            d[c].as_str()
                .unwrap_or_else(|| panic!("no {c} in row {i}: {d}"))
                .trim()
                .to_owned()
        };
        assert_eq!(text("label"), row["label"].as_str().unwrap(), "row {i}");
        assert_eq!(text("pass_rate"), pct(&row["pass_rate"]));
        assert_eq!(text("ci_low"), pct(&row["pass_rate_ci"]["low"]));
        assert_eq!(text("ci_high"), pct(&row["pass_rate_ci"]["high"]));
        assert_eq!(text("rank"), row["rank"]["rank"].to_string());
        assert_eq!(text("rank_low"), row["rank"]["low"].to_string());
        assert_eq!(text("rank_high"), row["rank"]["high"].to_string());
        assert_eq!(text("tasks"), "28");
        assert_eq!(text("passed_trials"), row["passed_trials"].to_string());
        assert_eq!(text("common_trials"), row["common_trials"].to_string());
        assert_eq!(text("scored_pass_rate"), pct(&row["scored_pass_rate"]));
        // A row with error trials on the common tasks is marked where it is ranked.
        let errored = row["tasks_with_errors"].as_array().unwrap().len();
        match d.get("error_mark").and_then(Value::as_str) {
            Some(mark) => assert!(errored > 0 && mark.contains(&errored.to_string()), "{mark}"),
            None => assert_eq!(errored, 0, "row {i} has errors but no mark"),
        }
        let per_solved = text("cost_per_solved");
        if row["cost_per_solved"].is_null() {
            assert_eq!(per_solved, "—");
        } else {
            assert!(
                per_solved.starts_with('$') && per_solved.contains('['),
                "{per_solved}"
            );
        }
        let at = row["pass_at_k"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["k"] == k)
            .unwrap();
        let hat = row["pass_hat_k"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["k"] == k)
            .unwrap();
        assert_eq!(text("pass_at_k"), pct(&at["value"]));
        assert_eq!(text("pass_hat_k"), pct(&hat["value"]));
        assert_eq!(text("error_rate"), pct(&row["error_rate"]));
        assert!(!text("tokens_per_task").starts_with('—'));
        assert_eq!(text("wall"), "1.0 h");
        let cost = text("cost_per_task");
        match row["cost_per_task_usd"].as_f64() {
            Some(c) if c < 1.0 => assert_eq!(cost, format!("${c:.4}")),
            Some(c) => assert_eq!(cost, format!("${c:.2}")),
            None => assert_eq!(cost, "—", "unknown cost shows a dash"),
        }
        // Best first, and the ranks never contradict the order.
        if i > 0 {
            assert!(row["pass_rate"].as_f64() <= rows[i - 1]["pass_rate"].as_f64());
        }
    }
    assert_eq!(
        rows.iter()
            .filter(|r| r["cost_per_task_usd"].is_null())
            .count(),
        3
    );
    // The page names its one task set and says what the rank intervals mean.
    assert_eq!(
        eval("document.querySelectorAll('#common-tasks code').length").as_u64(),
        Some(28)
    );
    let meaning = eval("document.getElementById('rank-meaning').textContent");
    assert!(
        meaning.as_str().unwrap().contains("simultaneous"),
        "{meaning}"
    );
    // Categories: one column per category; the matrix: one cell per pair of rows.
    assert_eq!(
        eval("document.querySelectorAll('#categories thead th').length").as_u64(),
        Some(6)
    );
    assert_eq!(
        eval("document.querySelectorAll('#matrix tbody td').length").as_u64(),
        Some(16)
    );
    assert_eq!(
        eval("document.querySelectorAll('#matrix td.self').length").as_u64(),
        Some(4)
    );
    assert_eq!(
        eval("document.querySelectorAll('#matrix td.better, #matrix td.worse').length").as_u64(),
        Some(
            2 * json["significance"]["pairs"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["significant"] == true)
                .count() as u64
        )
    );
    // Mixed suites: the banner is there and names the difference.
    let banner = eval(
        "document.getElementById('mixed') ? document.getElementById('mixed').textContent : ''",
    );
    assert!(
        banner
            .as_str()
            .unwrap()
            .contains("different suite versions"),
        "{banner}"
    );

    // The hostile names are text: nothing ran, no image was created.
    assert_eq!(eval("typeof window.__pwned").as_str(), Some("undefined"));
    assert_eq!(eval("document.images.length").as_u64(), Some(0));
    assert_eq!(eval("document.scripts.length").as_u64(), Some(1));
    let body = eval("document.body.textContent");
    assert!(
        body.as_str().unwrap().contains(EVIL_TASK),
        "the task id is shown as text"
    );

    // Sorting by pass rate (ascending) puts the lowest first.
    let sorted = eval(
        "(() => { document.querySelector('th[data-sort=pass]').click(); return JSON.stringify(Array.from(document.querySelectorAll('#tasks tbody tr')).map(r => parseFloat(r.dataset.pass))); })()",
    );
    let v: Vec<f64> = serde_json::from_str(sorted.as_str().unwrap()).unwrap();
    assert_eq!(v.len(), 4);
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "{v:?}");

    std::thread::sleep(Duration::from_millis(200));
    page.screenshot("leaderboard.png");
    std::fs::copy(
        &out.html,
        common::chrome::artifacts_dir().join("leaderboard.html"),
    )
    .unwrap();

    page.assert_ran_clean_and_offline("leaderboard.html");
}
