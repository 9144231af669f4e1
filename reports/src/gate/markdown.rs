//! The gate's Markdown summary (for a CI job summary or a pull-request comment).

use super::{GateOutcome, RuleOutcome};
use crate::compare::{Comparison, TaskSide};
use std::fmt::Write;

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The gate's summary: the verdict, the two runs, the rules, then what a reviewer should
/// look at (replay misses and drift, changed tasks).
pub fn render(g: &GateOutcome) -> String {
    let mut s = String::new();
    write_verdict(&mut s, g);
    write_runs_table(&mut s, &g.comparison);
    write_rules_and_notes(&mut s, g);
    write_replay_misses(&mut s, &g.comparison);
    write_replay_drift(&mut s, &g.comparison);
    write_changed_tasks(&mut s, &g.comparison);
    s
}

/// Passed, inconclusive, or failed with the failing rules.
fn write_verdict(s: &mut String, g: &GateOutcome) {
    let failing: Vec<_> = g.failing().collect();
    if g.verdict() == super::GateVerdict::Inconclusive {
        let _ = writeln!(
            s,
            "## nab gate: ⚠️ inconclusive\n\nNo rule failed, but none of the rules that compare pass rates ({}) could run (see why below): a drop in the pass rate would not have been seen. Run more tasks or trials.\n",
            super::PASS_RATE_RULES.join(", ")
        );
    } else if failing.is_empty() {
        let _ = writeln!(s, "## nab gate: ✅ passed\n");
    } else {
        let _ = writeln!(s, "## nab gate: ❌ failed ({} rule(s))\n", failing.len());
        for r in &failing {
            let _ = writeln!(s, "- **{}**: {}", r.id, r.detail);
        }
        let _ = writeln!(s);
    }
}

/// The baseline and the candidate side by side.
fn write_runs_table(s: &mut String, c: &Comparison) {
    let _ = writeln!(s, "| | baseline | candidate |\n|---|---:|---:|");
    let (b, k) = (&c.baseline, &c.candidate);
    let _ = writeln!(
        s,
        "| pass rate (an error counts as not passed) | {} | {} |",
        pct(b.pass_rate),
        pct(k.pass_rate)
    );
    let ci = |x: Option<crate::stats::Interval>| {
        x.map(|i| format!("{:.1}–{:.1}%", i.low * 100.0, i.high * 100.0))
            .unwrap_or_else(|| "—".into())
    };
    let _ = writeln!(
        s,
        "| 95% CI (Wilson, tasks) | {} | {} |",
        ci(b.pass_rate_ci),
        ci(k.pass_rate_ci)
    );
    let _ = writeln!(
        s,
        "| pass rate over scored trials | {} | {} |",
        pct(b.scored_pass_rate),
        pct(k.scored_pass_rate)
    );
    let _ = writeln!(
        s,
        "| tasks / trials | {} / {} | {} / {} |",
        b.tasks, b.trials, k.tasks, k.trials
    );
    let _ = writeln!(
        s,
        "| infrastructure errors | {} | {} |",
        b.infra.error_trials, k.infra.error_trials
    );
    let _ = writeln!(
        s,
        "| error rate (trials) | {} | {} |",
        pct(b.error_rate),
        pct(k.error_rate)
    );
    if b.zero_token_trials + k.zero_token_trials > 0 {
        let _ = writeln!(
            s,
            "| trials with model calls but 0 tokens | {} | {} |",
            b.zero_token_trials, k.zero_token_trials
        );
    }
    let _ = writeln!(
        s,
        "| tokens | {} | {} |",
        b.usage.total_tokens, k.usage.total_tokens
    );
    let count = |f: fn(&TaskSide) -> usize, candidate: bool| -> usize {
        c.tasks
            .iter()
            .filter_map(|t| if candidate { &t.candidate } else { &t.baseline }.as_ref())
            .map(f)
            .sum()
    };
    let drift = |t: &TaskSide| t.replay_drift.len();
    let misses = |t: &TaskSide| t.replay_misses.len();
    let _ = writeln!(
        s,
        "| replay misses (trials) | {} | {} |",
        count(misses, false),
        count(misses, true)
    );
    let _ = writeln!(
        s,
        "| replay drift (calls answered after normalization) | {} | {} |",
        count(drift, false),
        count(drift, true)
    );
}

/// Every rule's result and why, then the gate's notes.
fn write_rules_and_notes(s: &mut String, g: &GateOutcome) {
    let _ = writeln!(s, "\n### Rules\n\n| rule | result | why |\n|---|---|---|");
    for r in &g.rules {
        let mark = match r.outcome {
            RuleOutcome::Pass => "✅ pass",
            RuleOutcome::Fail => "❌ fail",
            RuleOutcome::Skipped => "➖ skipped",
        };
        let _ = writeln!(s, "| `{}` | {} | {} |", r.id, mark, cell(&r.detail));
    }
    if !g.notes.is_empty() {
        let _ = writeln!(s, "\n### Notes\n");
        for n in &g.notes {
            let _ = writeln!(s, "- {}", cell(n));
        }
    }
}

/// The candidate's tasks whose replay found no recording, with the first miss in full.
fn write_replay_misses(s: &mut String, c: &Comparison) {
    let missed: Vec<_> = c
        .tasks
        .iter()
        .filter_map(|t| Some((t, t.candidate.as_ref()?.replay_misses.first()?)))
        .collect();
    if missed.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n### Replay misses: the agent's requests changed\n\nRe-record the cassette (`{}`) if the change is intended. These trials were not verified, so they are not counted as test failures.\n",
        super::replay::RERECORD_HINT
    );
    for (t, msg) in &missed {
        let _ = writeln!(
            s,
            "- `{}`: {}",
            t.task_id,
            cell(super::replay::first_difference_line(msg))
        );
    }
    // The whole message of the first miss: its diff is what a reviewer needs.
    let _ = writeln!(
        s,
        "\n<details><summary>first miss</summary>\n\n```\n{}\n```\n</details>",
        missed[0].1.replace("```", "` ` `")
    );
}

/// The candidate's tasks with calls answered from the cassette only after normalization.
fn write_replay_drift(s: &mut String, c: &Comparison) {
    let drifted: Vec<_> = c
        .tasks
        .iter()
        .filter_map(|t| {
            Some((
                t,
                t.candidate
                    .as_ref()
                    .filter(|s| !s.replay_drift.is_empty())?,
            ))
        })
        .collect();
    if drifted.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n### Replay drift\n\nCalls answered from the cassette after their tool results were normalized (volatile output such as timings differed from the recording).\n\n| task | calls | first |\n|---|---:|---|"
    );
    for (t, side) in drifted {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} |",
            t.task_id,
            side.replay_drift.len(),
            cell(&side.replay_drift[0])
        );
    }
}

/// The tasks whose pass rate changed (or that only one run has).
fn write_changed_tasks(s: &mut String, c: &Comparison) {
    let changed: Vec<_> = c.tasks.iter().filter(|t| t.change != "same").collect();
    if changed.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n### Changed tasks\n\n| task | baseline | candidate | change |\n|---|---:|---:|---|"
    );
    let f = |x: &Option<TaskSide>| {
        x.as_ref()
            .map(|x| {
                if x.errors > 0 {
                    format!("{}/{} (⚠ {} err)", x.passed, x.trials(), x.errors)
                } else {
                    format!("{}/{}", x.passed, x.trials())
                }
            })
            .unwrap_or_else(|| "—".into())
    };
    for t in changed {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} |",
            t.task_id,
            f(&t.baseline),
            f(&t.candidate),
            t.change
        );
    }
}
