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
        if i < 2 {
            // Two runs have their report: the matrix links into them; the others say none.
            nab_reports::write_run_outputs(&dir).unwrap();
        }
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

    // 1,280 px: a laptop's window. Every ranking column is on screen without scrolling.
    let page = common::chrome::WatchedTab::showing((1280, 1000), &out.html);
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
    // Wall time is the run's (from run.json), in the runs table: a sweep's runs share it.
    assert_eq!(
        eval("Array.from(document.querySelectorAll('#runs [data-col=wall]')).map(e => e.textContent).join(',')").as_str(),
        Some("1.0 h,1.0 h,1.0 h,1.0 h")
    );
    assert_fits(&page, 1280);

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

    assert_task_matrix(&page, &json);
    assert_pareto(&page, &json);

    std::thread::sleep(Duration::from_millis(200));
    page.screenshot("leaderboard.png");
    std::fs::copy(
        &out.html,
        common::chrome::artifacts_dir().join("leaderboard.html"),
    )
    .unwrap();

    open_a_matrix_link(&page, &json);
    page.assert_ran_clean_and_offline("leaderboard.html");
}

/// Nothing of the ranking table is off-screen: the page does not scroll sideways and every
/// header's right edge is inside the window.
fn assert_fits(page: &common::chrome::WatchedTab, width: u64) {
    let m: Value = serde_json::from_str(
        page.eval(
            "JSON.stringify({vw: document.documentElement.clientWidth, sw: document.documentElement.scrollWidth, wrap: document.getElementById('ranking-wrap').scrollWidth - document.getElementById('ranking-wrap').clientWidth, rights: Array.from(document.querySelectorAll('#tasks th, #tasks td')).map(e => e.getBoundingClientRect().right)})",
        )
        .as_str()
        .unwrap(),
    )
    .unwrap();
    let vw = m["vw"].as_f64().unwrap();
    assert!(vw <= width as f64 && vw > width as f64 - 40.0, "{m}");
    assert!(
        m["sw"].as_f64().unwrap() <= vw,
        "the page scrolls sideways: {m}"
    );
    assert_eq!(
        m["wrap"].as_f64(),
        Some(0.0),
        "the ranking scrolls inside: {m}"
    );
    let rights = m["rights"].as_array().unwrap();
    assert_eq!(rights.len(), 12 * 5, "12 columns, a header and 4 rows");
    assert!(
        rights.iter().all(|r| r.as_f64().unwrap() <= vw),
        "a ranking cell is off-screen at {width} px: {m}"
    );
}

/// The task × model matrix: a line per common task, a cell per row with its passes, the
/// lines that separate the rows first, and links only into runs that have a report.
fn assert_task_matrix(page: &common::chrome::WatchedTab, json: &Value) {
    let lines = json["task_matrix"].as_array().unwrap();
    assert_eq!(lines.len(), 28);
    let dom: Value = serde_json::from_str(
        page.eval(
            "JSON.stringify(Array.from(document.querySelectorAll('#task-matrix tbody tr')).map(tr => ({task: tr.dataset.task, spread: parseFloat(tr.dataset.spread), cells: Array.from(tr.querySelectorAll('td.mc')).map(td => ({text: td.textContent.trim(), link: !!td.querySelector('a')}))})))",
        )
        .as_str()
        .unwrap(),
    )
    .unwrap();
    let dom = dom.as_array().unwrap();
    assert_eq!(dom.len(), 28);
    let spreads: Vec<f64> = dom.iter().map(|l| l["spread"].as_f64().unwrap()).collect();
    assert!(
        spreads.windows(2).all(|w| w[0] >= w[1]),
        "widest spread first: {spreads:?}"
    );
    let rows = json["rows"].as_array().unwrap();
    for l in dom {
        let line = lines.iter().find(|x| x["task_id"] == l["task"]).unwrap();
        for (j, cell) in l["cells"].as_array().unwrap().iter().enumerate() {
            let c = &line["cells"][j];
            let text = cell["text"].as_str().unwrap();
            assert!(
                text.starts_with(&format!("{}/{}", c["passed"], c["trials"])),
                "{text} {c}"
            );
            assert_eq!(
                c["errors"].as_u64().unwrap() > 0,
                text.contains('⚠'),
                "{text}"
            );
            let has_report = rows[j]["run_dir"].as_str().unwrap().ends_with("run-0")
                || rows[j]["run_dir"].as_str().unwrap().ends_with("run-1");
            assert_eq!(
                cell["link"].as_bool(),
                Some(has_report),
                "{}",
                rows[j]["run_dir"]
            );
        }
    }
    // "Only the tasks where the rows differ" hides exactly the lines of spread 0.
    let shown = page.eval(
        "(() => { const c = document.getElementById('only-differ'); c.click(); const n = Array.from(document.querySelectorAll('#task-matrix tbody tr')).filter(r => r.style.display !== 'none').length; c.click(); return n; })()",
    );
    let differing = lines
        .iter()
        .filter(|l| l["spread"].as_f64() > Some(0.0))
        .count();
    assert_eq!(shown.as_u64(), Some(differing as u64));
    // Sorting by the first row's column puts its weakest tasks first.
    let sorted = page.eval(
        "(() => { document.querySelector('#task-matrix th[data-sort=c0]').click(); return JSON.stringify(Array.from(document.querySelectorAll('#task-matrix tbody tr')).map(r => parseFloat(r.dataset.c0))); })()",
    );
    let v: Vec<f64> = serde_json::from_str(sorted.as_str().unwrap()).unwrap();
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "{v:?}");
}

/// The cost chart: a dot per row, the Pareto front marked. Only one run is priced, so it
/// plots tokens per task.
fn assert_pareto(page: &common::chrome::WatchedTab, json: &Value) {
    let dots = page.eval("document.querySelectorAll('#pareto .dot').length");
    assert_eq!(
        dots.as_u64(),
        Some(json["rows"].as_array().unwrap().len() as u64)
    );
    let front = page.eval("document.querySelectorAll('#pareto .dot.on-front').length");
    assert!(front.as_u64().unwrap() >= 1);
    let title = page.eval("document.querySelector('#pareto title').textContent");
    assert!(
        title.as_str().unwrap().contains("tokens per task"),
        "{title}"
    );
}

/// A matrix link opens that task's trial in the run's report: the trial the JSON names.
fn open_a_matrix_link(page: &common::chrome::WatchedTab, json: &Value) {
    let target: Value = serde_json::from_str(
        page.eval(
            "(() => { const a = document.querySelector('#task-matrix td.mc a'); const td = a.closest('td'); return JSON.stringify({href: a.href, task: td.closest('tr').dataset.task, col: parseInt(td.dataset.col)}); })()",
        )
        .as_str()
        .unwrap(),
    )
    .unwrap();
    let line = json["task_matrix"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["task_id"] == target["task"])
        .unwrap();
    let trial = &line["cells"][target["col"].as_u64().unwrap() as usize]["open_trial"];
    page.tab
        .navigate_to(target["href"].as_str().unwrap())
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    let want = format!("{} · trial {}", target["task"].as_str().unwrap(), trial);
    let mut shown = Value::Null;
    for _ in 0..100 {
        shown = page.eval(
            "document.getElementById('trial-view') && document.getElementById('trial-view').classList.contains('open') ? document.getElementById('trial-title').textContent : ''",
        );
        if shown.as_str() == Some(want.as_str()) {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the report opened {shown}, not {want} ({})", target["href"]);
}
