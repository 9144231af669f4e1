//! The report in a real headless Chromium (Debian's `chromium` package).
//!
//! Opens report.html of a generated run of 28 tasks × 5 trials over the DevTools protocol
//! and checks: no console error or uncaught exception; the summary numbers in the DOM equal
//! summary.json; a trial view opens and shows its diff; no network request is made.
//! Saves a screenshot to `target/nab-artifacts/report.png` for CI to keep.

use crate::common;
use nab_reports::synth_records;

use serde_json::Value;
use std::time::Duration;

/// Parses "67.9%", "1,234" or "12" to a number.
fn number(text: &str) -> f64 {
    let t = text.trim().trim_end_matches('%').replace(',', "");
    t.parse()
        .unwrap_or_else(|_| panic!("not a number in the DOM: {text:?}"))
}

#[test]
fn the_report_renders_in_headless_chromium_offline_and_matches_summary_json() {
    let tmp = tempfile::tempdir().unwrap();
    let mut spec = common::spec("browser", 28, 5, true);
    spec.error_rate = 0.03;
    spec.turns = 6;
    let mut recs = synth_records(&spec);
    // Priced trials (what `nab run --prices` writes), so the cost card and column render.
    for r in recs.iter_mut() {
        r.usage.cost_usd = r
            .usage
            .input_tokens
            .zip(r.usage.output_tokens)
            .map(|(i, o)| (i as f64 * 2.0 + o as f64 * 8.0) / 1e6);
    }
    let dir = common::write(tmp.path(), "run", &spec, &recs);
    let out = nab_reports::write_run_outputs(&dir).unwrap();
    let summary: Value =
        serde_json::from_slice(&std::fs::read(&out.summary_json).unwrap()).unwrap();

    let page = common::chrome::WatchedTab::showing((1400, 1800), &out.report_html);
    let (tab, problems) = (&page.tab, &page.problems);

    // The summary numbers in the DOM equal summary.json (to the precision shown).
    let dom: Value = serde_json::from_str(
        page.eval("JSON.stringify(Object.fromEntries(Array.from(document.querySelectorAll('[data-summary]')).map(e => [e.dataset.summary, e.textContent])))")
        .as_str()
        .unwrap(),
    )
    .unwrap();
    let text = |k: &str| {
        dom[k]
            .as_str()
            .unwrap_or_else(|| panic!("no [data-summary={k}] in the DOM: {dom}"))
            .to_owned()
    };
    let pct_eq = |k: &str, v: &Value| {
        let shown = number(&text(k));
        let want = v.as_f64().unwrap() * 100.0;
        assert!(
            (shown - want).abs() <= 0.05 + 1e-9,
            "{k}: DOM {shown} vs summary.json {want}"
        );
    };
    pct_eq("pass_rate", &summary["pass_rate"]);
    pct_eq("pass_rate_ci_low", &summary["pass_rate_ci"]["low"]);
    pct_eq("pass_rate_ci_high", &summary["pass_rate_ci"]["high"]);
    pct_eq("flip_rate", &summary["flip_rate"]);
    pct_eq("error_rate", &summary["error_rate"]);
    pct_eq("mde", &summary["mde"]["value"]);
    for m in summary["pass_at_k"].as_array().unwrap() {
        pct_eq(&format!("pass_at_{}", m["k"]), &m["value"]);
    }
    for m in summary["pass_hat_k"].as_array().unwrap() {
        pct_eq(&format!("pass_hat_{}", m["k"]), &m["value"]);
    }
    for (k, v) in [
        ("tasks", &summary["tasks"]),
        ("scored_tasks", &summary["scored_tasks"]),
        ("trials", &summary["trials"]),
        ("passed_trials", &summary["passed_trials"]),
        ("scored_trials", &summary["scored_trials"]),
        ("error_trials", &summary["infra"]["error_trials"]),
        ("total_tokens", &summary["usage"]["total_tokens"]),
        ("llm_calls", &summary["usage"]["llm_calls"]),
        ("violations", &summary["safety"]["violations"]),
        ("cost_known_trials", &summary["usage"]["cost_known_trials"]),
    ] {
        assert_eq!(number(&text(k)), v.as_f64().unwrap(), "{k}");
    }
    assert_eq!(text("agent"), summary["agent"].as_str().unwrap());
    // The total cost, in dollars to the precision shown ($x.xx from $1 up, else $0.xxxx).
    let cost_shown: f64 = text("cost_usd").trim_start_matches('$').parse().unwrap();
    let cost = summary["usage"]["cost_usd"].as_f64().unwrap();
    let step = if cost >= 1.0 { 0.005 } else { 0.00005 };
    assert!(
        cost > 0.0 && (cost_shown - cost).abs() <= step + 1e-12,
        "{cost_shown} vs {cost}"
    );
    // The judges' score split by the hidden tests' verdict, as summary.json has it.
    let split = summary["judges"]["by_verdict"].as_array().unwrap();
    assert_eq!(
        split.len(),
        2,
        "synthetic runs have judged passes and failures"
    );
    for v in split {
        let shown = page.eval(&format!(
            "document.querySelector('[data-judge-verdict={}] b').textContent",
            v["verdict"].as_str().unwrap()
        ));
        assert_eq!(
            shown.as_str().unwrap(),
            format!("{:.2}", v["mean_score"].as_f64().unwrap()),
            "{v}"
        );
    }
    assert_eq!(summary["tasks"], 28);
    assert_eq!(summary["trials"], 140);

    // Filtering by status hides the other rows.
    let visible = page.eval("(() => { const s = document.getElementById('f-status'); s.value = 'passed'; s.dispatchEvent(new Event('change')); const n = document.querySelectorAll('#tasks tbody tr:not([hidden])').length; const bad = Array.from(document.querySelectorAll('#tasks tbody tr:not([hidden])')).filter(r => r.dataset.status !== 'passed').length; s.value = ''; s.dispatchEvent(new Event('change')); return n * 1000 + bad; })()")
        .as_f64()
        .unwrap();
    assert!(
        visible >= 1000.0 && visible % 1000.0 == 0.0,
        "filter shows only passed rows: {visible}"
    );

    // Sorting by cost per trial puts the rows in ascending order of their shown cost.
    let sorted = page.eval("(() => { document.querySelector('th[data-sort=cost]').click(); const v = Array.from(document.querySelectorAll('#tasks tbody tr')).map(r => parseFloat(r.querySelector('[data-col=mean_cost]').textContent.replace('$', ''))); const w = v.filter(x => !isNaN(x)); return w.every((x, i) => i === 0 || w[i - 1] <= x) && w.length >= 27 && v.length === 28; })()");
    assert_eq!(
        sorted,
        serde_json::json!(true),
        "cost column sorts ascending"
    );

    // A trial view opens (click a failed trial) and shows its highlighted diff.
    tab.find_element("a.tl.failed").unwrap().click().unwrap();
    let diff = tab.wait_for_element("#trial-body pre.diff span.add").unwrap_or_else(|e| {
        let state = tab
            .evaluate("location.hash + ' | ' + document.getElementById('trial-body').innerHTML.slice(0, 300)", false)
            .ok()
            .and_then(|v| v.value);
        panic!("the trial view did not open: {e}; page state {state:?}; console {:?}", problems.lock().unwrap())
    });
    assert_eq!(
        diff.get_inner_text().unwrap().trim(),
        "+    end = start + size"
    );
    let body = tab
        .find_element("#trial-body")
        .unwrap()
        .get_inner_text()
        .unwrap();
    assert!(
        body.contains("The function `paginate`"),
        "instruction shown"
    );
    assert!(
        body.contains("read_file") && body.contains("execute_command"),
        "trajectory with tool calls"
    );
    assert!(body.contains("FAILED tests/test_app.py"), "verifier output");
    assert!(body.contains("readability"), "judge evidence");
    // The long tool output starts collapsed.
    let collapsed = page
        .eval("document.querySelectorAll('#trial-body details:not([open])').length")
        .as_f64()
        .unwrap();
    assert!(collapsed >= 1.0);

    // Screenshot the trial view at its diff, to show the highlighting.
    tab.evaluate(
        "document.querySelector('#trial-body pre.diff').scrollIntoView({block: 'center'})",
        false,
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    page.screenshot("trial.png");
    // And the top of the report.
    tab.evaluate("history.pushState(null, '', location.pathname); document.getElementById('trial-view').classList.remove('open'); window.scrollTo(0, 0)", false)
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    page.screenshot("report.png");
    std::fs::copy(
        &out.report_html,
        common::chrome::artifacts_dir().join(nab_protocol::REPORT_FILE),
    )
    .unwrap();

    page.assert_ran_clean_and_offline(nab_protocol::REPORT_FILE);
}
