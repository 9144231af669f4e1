//! `nab view`'s index.html in a real headless Chromium, as report.html is tested in
//! `browser.rs`: it lists every run, the filter hides the rows that do not match, sorting by
//! pass rate orders the rows, two ticked runs are compared, a trial link opens that trial in
//! its report, a run's link opens its report; a hostile model name stays text; nothing is
//! fetched and nothing is logged as an error. Saves `target/nab-artifacts/view.png`.

use crate::common::chrome::{WatchedTab, artifacts_dir};
use crate::view::{EVIL_MODEL, runs_folder};
use nab_reports::view;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

/// Runs `js` (an expression) and parses the JSON string it returns.
fn json(page: &WatchedTab, js: &str) -> Value {
    let v = page.eval(&format!("JSON.stringify({js})"));
    serde_json::from_str(v.as_str().unwrap_or("null")).unwrap()
}

fn visible_paths(page: &WatchedTab) -> Vec<String> {
    serde_json::from_value(json(
        page,
        "Array.from(document.querySelectorAll('#runs tbody tr:not([hidden])')).map(r => r.dataset.path)",
    ))
    .unwrap()
}

#[test]
fn the_index_lists_filters_sorts_compares_and_opens_runs_in_headless_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = runs_folder(tmp.path());
    let out = view::write_index(&runs).unwrap();
    let x = &out.index;

    let page = WatchedTab::open((1400, 1200));
    let url = format!("file://{}", out.html.canonicalize().unwrap().display());
    page.tab
        .navigate_to(&url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    page.tab.wait_for_element("#runs tbody tr").unwrap();

    // Every run is listed, with the figures the index computed.
    let rows = json(
        &page,
        "Array.from(document.querySelectorAll('#runs tbody tr')).map(tr => Object.fromEntries(Array.from(tr.querySelectorAll('[data-col]')).map(e => [e.dataset.col, e.textContent.trim()])))",
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), x.runs.len());
    assert_eq!(rows.len(), 4);
    for (r, d) in x.runs.iter().zip(rows) {
        assert!(d["path"].as_str().unwrap().starts_with(&r.path), "{d}");
        assert_eq!(d["model"].as_str(), r.model.as_deref());
        assert_eq!(d["agent"].as_str(), r.agent.as_deref());
        assert_eq!(d["date"].as_str(), r.date.as_deref());
        assert_eq!(d["pass_rate"].as_str().unwrap(), pct(r.pass_rate));
        assert_eq!(d["trials"].as_str().unwrap(), r.trials.to_string());
        assert_eq!(d["errors"].as_str().unwrap(), r.error_trials.to_string());
        // As every page writes dollars: cents from $1 up, four places below.
        let cost = r.cost_usd.map(|c| {
            if c < 1.0 {
                format!("${c:.4}")
            } else {
                format!("${c:.2}")
            }
        });
        assert_eq!(d["cost"].as_str().unwrap(), cost.as_deref().unwrap_or("—"));
    }
    assert!(
        x.runs
            .iter()
            .any(|r| r.cost_usd.is_some() && r.error_trials == 0)
    );
    assert!(x.runs.iter().any(|r| r.error_trials > 0));
    // The hostile model name is shown as text; nothing of it ran.
    assert_eq!(
        page.eval("typeof window.__pwned").as_str(),
        Some("undefined")
    );
    assert_eq!(page.eval("document.images.length").as_u64(), Some(0));
    assert!(rows.iter().any(|d| d["model"] == EVIL_MODEL));

    // The filter hides the rows that do not match, and clearing it shows them again.
    let set_filter = |q: &str| {
        page.eval(&format!(
            "(() => {{ const f = document.getElementById('filter'); f.value = {}; f.dispatchEvent(new Event('input')); }})()",
            serde_json::to_string(q).unwrap()
        ));
    };
    set_filter("model-small");
    assert_eq!(visible_paths(&page), ["sweep-1/model-small"]);
    assert_eq!(
        page.eval("document.getElementById('shown').textContent")
            .as_str(),
        Some("1")
    );
    set_filter("sweep-1");
    assert_eq!(
        visible_paths(&page),
        ["sweep-1/model-large", "sweep-1/model-small"]
    );
    set_filter("");
    assert_eq!(visible_paths(&page).len(), 4);

    // Sorting by pass rate puts the rows in ascending order of it.
    page.tab
        .find_element("th[data-sort=pass]")
        .unwrap()
        .click()
        .unwrap();
    let rates: Vec<f64> = serde_json::from_value(json(
        &page,
        "Array.from(document.querySelectorAll('#runs tbody tr')).map(r => parseFloat(r.dataset.pass))",
    ))
    .unwrap();
    assert_eq!(rates.len(), 4);
    assert!(rates.windows(2).all(|w| w[0] <= w[1]), "{rates:?}");
    let mut want: Vec<f64> = x.runs.iter().filter_map(|r| r.pass_rate).collect();
    want.sort_by(f64::total_cmp);
    assert!(
        want.windows(2).all(|w| w[0] < w[1]),
        "unlike rates: {want:?}"
    );
    assert_eq!(rates, want);

    compare_two(&page, x);

    std::thread::sleep(Duration::from_millis(200));
    page.screenshot("view.png");
    std::fs::copy(&out.html, artifacts_dir().join("view.html")).unwrap();

    open_a_trial(&page, x);
    open_a_report(&page, &url);
    page.assert_ran_clean_and_offline(view::INDEX_FILE);
}

/// Ticks the sweep's two runs: the comparison shows both, their common tasks with the
/// differing ones highlighted, and the `nab compare` command.
fn compare_two(page: &WatchedTab, x: &view::ViewIndex) {
    let (a, b) = (1usize, 2usize);
    for i in [a, b] {
        page.tab
            .find_element(&format!("#runs tr[data-idx=\"{i}\"] input.pick"))
            .unwrap()
            .click()
            .unwrap();
    }
    assert_eq!(
        page.eval("document.getElementById('compare').hidden"),
        Value::Bool(false)
    );
    let title = page.eval("document.getElementById('compare-title').textContent");
    assert_eq!(
        title.as_str().unwrap(),
        "Comparing sweep-1/model-large (baseline) with sweep-1/model-small (candidate)"
    );
    // Per-task pass counts on the common tasks, the differing ones highlighted.
    let counts = |r: &view::entry::RunEntry| -> BTreeMap<String, String> {
        r.per_task
            .iter()
            .map(|t| (t.id.clone(), format!("{} / {}", t.passed, t.trials)))
            .collect()
    };
    let (ca, cb) = (counts(&x.runs[a]), counts(&x.runs[b]));
    let shown = json(
        page,
        "Array.from(document.querySelectorAll('#compare-tasks tbody tr')).map(r => [r.dataset.task, r.cells[1].textContent, r.cells[2].textContent, r.classList.contains('differs')])",
    );
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), ca.len());
    let mut differ = 0;
    for s in shown {
        let task = s[0].as_str().unwrap();
        assert_eq!(s[1].as_str().unwrap(), ca[task]);
        assert_eq!(s[2].as_str().unwrap(), cb[task]);
        assert_eq!(s[3].as_bool().unwrap(), ca[task] != cb[task], "{task}");
        differ += usize::from(ca[task] != cb[task]);
    }
    assert!(differ > 0, "two seeds differ somewhere");
    let cmd = page.eval("document.getElementById('compare-cmd').textContent");
    let root = x.dir.clone();
    assert_eq!(
        cmd.as_str().unwrap(),
        format!(
            "nab compare --baseline {root}/sweep-1/model-large --candidate {root}/sweep-1/model-small --out {root}/sweep-1/model-small/compare-sweep-1+model-large.html"
        )
    );
}

/// Lists a run's trials and clicks one: its report opens at that trial's view.
fn open_a_trial(page: &WatchedTab, x: &view::ViewIndex) {
    let i = x
        .runs
        .iter()
        .position(|r| r.path == "sweep-1/model-small")
        .unwrap();
    page.tab
        .find_element(&format!("#runs tr[data-idx=\"{i}\"] button.show-trials"))
        .unwrap()
        .click()
        .unwrap();
    let listed = page.eval("document.querySelectorAll('#trials-table tbody tr').length");
    assert_eq!(listed.as_u64(), Some(x.runs[i].per_task.len() as u64));
    let link = page.tab.find_element("#trials-table a.tl.failed").unwrap();
    let attrs = link.get_attributes().unwrap().unwrap_or_default();
    let attr = |k: &str| {
        attrs
            .chunks(2)
            .find(|c| c[0] == k)
            .map(|c| c[1].clone())
            .unwrap()
    };
    let (task, trial) = (attr("data-task"), attr("data-trial"));
    assert!(attr("href").starts_with("sweep-1/model-small/report.html#trial-"));
    link.click().unwrap();
    page.tab.wait_until_navigated().unwrap();
    page.tab
        .wait_for_element("#trial-view.open #trial-body .turn")
        .unwrap();
    let title = page.eval("document.getElementById('trial-title').textContent");
    assert_eq!(title.as_str().unwrap(), format!("{task} · trial {trial}"));
    let body = page.eval("document.getElementById('trial-body').textContent");
    assert!(
        body.as_str().unwrap().contains(&format!("# {task}")),
        "the instruction of {task}"
    );
    assert!(
        body.as_str().unwrap().contains("FAILED tests/test_app.py"),
        "a failed trial's test output"
    );
}

/// Back on the index, a run's report link opens its report.
fn open_a_report(page: &WatchedTab, index_url: &str) {
    page.tab
        .navigate_to(index_url)
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    page.tab.wait_for_element("#runs tbody tr").unwrap();
    page.tab
        .find_element("#runs tr[data-path=\"solo\"] a.report")
        .unwrap()
        .click()
        .unwrap();
    page.tab.wait_until_navigated().unwrap();
    page.tab.wait_for_element("#tasks tbody tr").unwrap();
    let at = page.eval("location.pathname");
    assert!(
        at.as_str().unwrap().ends_with("/runs/solo/report.html"),
        "{at}"
    );
    let model = page.eval("document.body.textContent.includes('onerror=alert(1)')");
    assert_eq!(
        model,
        Value::Bool(true),
        "the solo run's report, which names its model"
    );
}
