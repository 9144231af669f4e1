//! `leaderboard.md`: the ranking, the categories and the significance matrix as Markdown
//! tables (for a pull request, a paper's appendix or a CI job summary).
//!
//! Names come from run folders, so every cell is escaped: Markdown renderers pass raw HTML
//! through, and a `|` or a newline would break the table.

use super::Leaderboard;
use super::display::short;
use super::row::Row;
use super::significance::Significance;
use crate::format::{pct, points, ratio_usd, seconds, tokens, usd};
use std::fmt::Write;

/// How many excluded tasks are listed before "and N more".
const LIST: usize = 30;

/// HTML special characters as entities, Markdown specials escaped, one line: names come
/// from run folders, and Markdown renderers pass raw HTML through.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A table cell holding a name: cut to a readable length, then escaped.
pub fn cell(s: &str) -> String {
    escape(&short(s))
}

/// A sentence (a note, a reason): escaped, cut only at 2,000 characters.
fn cell_long(s: &str) -> String {
    escape(&s.chars().take(2_000).collect::<String>())
}

/// `leaderboard.md`, section by section.
pub fn render(b: &Leaderboard) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# nab leaderboard\n");
    write_mixed_warning(&mut s, b);
    write_ranking(&mut s, b);
    write_categories(&mut s, b);
    if b.rows.len() > 1 {
        write_significance(&mut s, b);
    }
    write_left_out(&mut s, b);
    write_common_tasks_and_runs(&mut s, b);
    s
}

/// The warning that heads a leaderboard of runs on different suites (`--allow-mixed`).
fn write_mixed_warning(s: &mut String, b: &Leaderboard) {
    if b.mixed.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "> **Mixed suites, ranked anyway (`--allow-mixed`)**: these runs did not all use the same tasks or the same suite version, so the ranks compare unlike things."
    );
    for m in &b.mixed {
        let _ = writeln!(s, "> - {}", cell_long(m));
    }
    let _ = writeln!(s);
}

/// What the figures mean, then the ranking table, a row per run.
fn write_ranking(s: &mut String, b: &Leaderboard) {
    let _ = writeln!(
        s,
        "Every figure on this page — ranks, intervals, the matrix, pass@k and the categories — is measured on the same **{}** common tasks (listed at the end). Pass rate: mean over tasks of passed / all trials (an infrastructure error counts as not passed; rows with errors are marked ⚠), 95% Wilson interval with n = tasks. {}\n",
        b.common_tasks.len(),
        b.ranks.explanation
    );
    let k = b.headline_k;
    let kh = k
        .map(|k| format!("pass@{k} / pass^{k}"))
        .unwrap_or_else(|| "pass@k / pass^k".into());
    let _ = writeln!(
        s,
        "| rank | 95% rank interval (simultaneous) | agent · model | pass rate | 95% CI | over scored trials | tasks | passed / all trials | {kh} | tokens / task | cost / task | cost / solved task | agent time / task (own) | wall time | error rate |"
    );
    let _ = writeln!(
        s,
        "|---:|:---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in &b.rows {
        write_ranking_row(s, r, k);
    }
}

/// One run's line of the ranking table (`k`: the headline k of the pass@k column).
fn write_ranking_row(s: &mut String, r: &Row, k: Option<u32>) {
    let ci = r
        .pass_rate_ci
        .map(|c| format!("{:.1}–{:.1}%", c.low * 100.0, c.high * 100.0))
        .unwrap_or_else(|| "—".into());
    let kcell = match k {
        Some(k) => {
            let at = r.pass_at(k);
            let hat = r.pass_hat(k);
            format!(
                "{} / {} (n={})",
                pct(at.and_then(|m| m.value)),
                pct(hat.and_then(|m| m.value)),
                at.map(|m| m.tasks).unwrap_or(0)
            )
        }
        None => "—".into(),
    };
    let mark = if r.tasks_with_errors.is_empty() {
        String::new()
    } else {
        format!(" ⚠ errors in {} task(s)", r.tasks_with_errors.len())
    };
    let own = match (r.agent_s_per_task, r.own_s_per_task) {
        (a, Some(o)) => format!("{} ({})", seconds(a), seconds(Some(o))),
        (a, None) => seconds(a),
    };
    let _ = writeln!(
        s,
        "| {} | {}–{} | {}{} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} | {} ({}/{}) |",
        r.rank.rank,
        r.rank.low,
        r.rank.high,
        cell(&r.label),
        mark,
        pct(r.pass_rate),
        ci,
        pct(r.scored_pass_rate),
        r.tasks,
        r.passed_trials,
        r.common_trials,
        kcell,
        tokens(r.tokens_per_task),
        usd(r.cost_per_task_usd),
        r.cost_per_solved
            .as_ref()
            .map(ratio_usd)
            .unwrap_or_else(|| "—".into()),
        own,
        seconds(r.wall_s),
        pct(r.error_rate),
        r.error_trials,
        r.trials
    );
}

/// Pass rate by category, a column per category up to [`super::MAX_CATEGORIES`].
fn write_categories(s: &mut String, b: &Leaderboard) {
    if b.categories.is_empty() {
        return;
    }
    let cats: Vec<&String> = b.categories.iter().take(super::MAX_CATEGORIES).collect();
    let _ = writeln!(s, "\n## Pass rate by category\n");
    let _ = write!(s, "| agent · model |");
    for c in &cats {
        let _ = write!(s, " {} |", cell(c));
    }
    let _ = writeln!(s, "\n|---|{}", "---:|".repeat(cats.len()));
    for r in &b.rows {
        let _ = write!(s, "| {} |", cell(&r.label));
        for c in &cats {
            let v = r.categories.iter().find(|x| &&x.category == c);
            let _ = write!(
                s,
                " {} (n={}) |",
                pct(v.and_then(|v| v.pass_rate)),
                v.map(|v| v.tasks).unwrap_or(0)
            );
        }
        let _ = writeln!(s);
    }
    if b.categories.len() > cats.len() {
        let _ = writeln!(
            s,
            "\n{} more categories are in leaderboard.json.",
            b.categories.len() - cats.len()
        );
    }
}

/// The pairwise significance matrix, row minus column.
fn write_significance(s: &mut String, b: &Leaderboard) {
    let sig = &b.significance;
    let _ = writeln!(
        s,
        "\n## Pairwise significance\n\nRow minus column, in points of pass rate, over the common tasks (the difference of the two rows' pass rates); exact sign-flip test, Holm-corrected over the {} pairs tested at α = {}. **bold** = significant after correction; n.s. = not.\n",
        sig.tested, sig.alpha
    );
    let _ = write!(s, "| |");
    for (j, _) in b.rows.iter().enumerate() {
        let _ = write!(s, " {} |", j + 1);
    }
    let _ = writeln!(s, "\n|---|{}", "---:|".repeat(b.rows.len()));
    for (i, r) in b.rows.iter().enumerate() {
        let _ = write!(s, "| {}. {} |", i + 1, cell(&r.label));
        for j in 0..b.rows.len() {
            let _ = write!(s, " {} |", significance_cell(sig, i, j));
        }
        let _ = writeln!(s);
    }
}

/// The matrix cell of rows `i` and `j`: empty on the diagonal, bold when significant.
fn significance_cell(sig: &Significance, i: usize, j: usize) -> String {
    match sig.between(i, j) {
        None => "".to_owned(),
        Some((sign, p)) => match (p.mean_diff, p.p_holm) {
            (Some(d), Some(ph)) if p.significant => {
                format!("**{}** (p {})", points(sign * d), p_text(ph))
            }
            (Some(d), Some(ph)) => {
                format!("{} n.s. (p {})", points(sign * d), p_text(ph))
            }
            (Some(d), None) => {
                format!("{} untested (n={})", points(sign * d), p.tasks)
            }
            _ => "—".to_owned(),
        },
    }
}

/// What is not ranked or needs saying: tasks left out, quarantined tasks, notes.
fn write_left_out(s: &mut String, b: &Leaderboard) {
    if !b.excluded_tasks.is_empty() {
        let _ = writeln!(s, "\n## Tasks left out ({})\n", b.excluded_tasks.len());
        for e in b.excluded_tasks.iter().take(LIST) {
            let _ = writeln!(s, "- {}: {}", cell(&e.task_id), cell_long(&e.reason));
        }
        if b.excluded_tasks.len() > LIST {
            let _ = writeln!(
                s,
                "- and {} more (leaderboard.json)",
                b.excluded_tasks.len() - LIST
            );
        }
    }
    if !b.quarantined.is_empty() {
        let _ = writeln!(s, "\n## Quarantined (tasks/quarantine.yaml)\n");
        for q in &b.quarantined {
            let _ = writeln!(s, "- {}: {}", cell(&q.task_id), cell_long(&q.reason));
        }
    }
    if !b.notes.is_empty() {
        let _ = writeln!(s, "\n## Notes\n");
        for n in &b.notes {
            let _ = writeln!(s, "- {}", cell_long(n));
        }
    }
}

/// The common task set and the run folders behind the rows.
fn write_common_tasks_and_runs(s: &mut String, b: &Leaderboard) {
    let _ = writeln!(s, "\n## Common tasks ({})\n", b.common_tasks.len());
    let _ = writeln!(
        s,
        "{}",
        b.common_tasks
            .iter()
            .map(|t| cell(t))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, "\n## Runs\n");
    for (i, r) in b.rows.iter().enumerate() {
        let _ = writeln!(
            s,
            "{}. {}: {} (run {})",
            i + 1,
            cell(&r.label),
            cell(&r.run_dir),
            cell(r.run_id.as_deref().unwrap_or("—"))
        );
    }
}

fn p_text(p: f64) -> String {
    // `<` followed by a digit is no tag to a Markdown renderer, so it needs no entity.
    if p < 0.001 {
        "< 0.001".to_owned()
    } else {
        format!("= {p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cannot_break_the_table_or_inject_html() {
        let c = cell("<img src=x onerror=alert(1)>|x\ny");
        assert_eq!(c, "&lt;img src=x onerror=alert(1)&gt;\\|x y");
        assert_eq!(usd(Some(0.00123)), "$0.0012");
        assert_eq!(usd(Some(0.0125)), "$0.0125");
        assert_eq!(usd(Some(1.5)), "$1.50");
        assert_eq!(usd(None), "—");
        assert_eq!(seconds(Some(90.0)), "1.5 min");
        assert_eq!(tokens(Some(123_456.0)), "123.5k");
        // A p-value reads the same raw and rendered: no entity.
        assert_eq!(p_text(0.0001), "< 0.001");
        assert_eq!(p_text(0.0123), "= 0.012");
    }
}
