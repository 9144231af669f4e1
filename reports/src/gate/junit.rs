//! JUnit XML: one test case per task (and one per rule), so any CI system lists failures.

use super::{GateOutcome, RuleOutcome};
use std::collections::BTreeMap;
use std::fmt::Write;

/// XML-escapes text and attribute values, and drops characters XML 1.0 cannot hold.
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\t' | '\n' | '\r' => o.push(ch),
            c if (c as u32) < 0x20 => {}
            c => o.push(c),
        }
    }
    o
}

pub fn render(g: &GateOutcome) -> String {
    // Per task: the failing rules that name it.
    let mut task_failures: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for r in g.failing() {
        for t in &r.tasks {
            task_failures
                .entry(t.as_str())
                .or_default()
                .push(format!("{}: {}", r.id, r.detail));
        }
    }
    let mut cases = String::new();
    let (mut failures, mut skipped) = (0, 0);
    for t in &g.comparison.tasks {
        let frac = |x: &Option<crate::compare::TaskSide>| {
            x.as_ref()
                .map(|x| format!("{}/{} passed, {} error(s)", x.passed, x.scored, x.errors))
                .unwrap_or_else(|| "absent".into())
        };
        let out = format!(
            "baseline {}; candidate {}; {}",
            frac(&t.baseline),
            frac(&t.candidate),
            t.change
        );
        let _ = write!(
            cases,
            "    <testcase classname=\"nab.tasks.{}\" name=\"{}\">",
            xml_escape(&t.category),
            xml_escape(&t.task_id)
        );
        if let Some(f) = task_failures.get(t.task_id.as_str()) {
            failures += 1;
            let _ = write!(
                cases,
                "<failure message=\"{}\">{}</failure>",
                xml_escape(&f[0]),
                xml_escape(&f.join("\n"))
            );
        } else if t.candidate.as_ref().is_none_or(|c| c.scored == 0) {
            skipped += 1;
            let _ = write!(
                cases,
                "<skipped message=\"{}\"/>",
                xml_escape("no verdict in the candidate (absent or infrastructure errors only)")
            );
        }
        let _ = writeln!(
            cases,
            "<system-out>{}</system-out></testcase>",
            xml_escape(&out)
        );
    }
    let mut rule_cases = String::new();
    let (mut rule_failures, mut rule_skipped) = (0, 0);
    for r in &g.rules {
        let _ = write!(
            rule_cases,
            "    <testcase classname=\"nab.gate\" name=\"{}\">",
            xml_escape(r.id)
        );
        match r.outcome {
            RuleOutcome::Fail => {
                rule_failures += 1;
                let _ = write!(
                    rule_cases,
                    "<failure message=\"{}\"/>",
                    xml_escape(&r.detail)
                );
            }
            RuleOutcome::Skipped => {
                rule_skipped += 1;
                let _ = write!(
                    rule_cases,
                    "<skipped message=\"{}\"/>",
                    xml_escape(&r.detail)
                );
            }
            RuleOutcome::Pass => {
                let _ = write!(
                    rule_cases,
                    "<system-out>{}</system-out>",
                    xml_escape(&r.detail)
                );
            }
        }
        let _ = writeln!(rule_cases, "</testcase>");
    }
    let n_tasks = g.comparison.tasks.len();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"nab gate\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">",
        n_tasks + g.rules.len(),
        failures + rule_failures,
        skipped + rule_skipped
    );
    let _ = writeln!(
        s,
        "  <testsuite name=\"nab.tasks\" tests=\"{n_tasks}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">"
    );
    s.push_str(&cases);
    s.push_str("  </testsuite>\n");
    let _ = writeln!(
        s,
        "  <testsuite name=\"nab.gate\" tests=\"{}\" failures=\"{rule_failures}\" errors=\"0\" skipped=\"{rule_skipped}\">",
        g.rules.len()
    );
    s.push_str(&rule_cases);
    s.push_str("  </testsuite>\n</testsuites>\n");
    s
}
