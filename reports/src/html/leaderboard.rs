//! leaderboard.html: the ranking, categories and significance matrix of many runs.

use super::pareto::{self, Point};
use super::svg::{self, Bar};
use super::{environment, links, render};
use crate::error::Result;
use crate::leaderboard::display::fit;
use crate::leaderboard::{Leaderboard, MAX_CATEGORIES};
use minijinja::{Value, context};
use serde::Serialize;
use std::path::Path;

/// One cell of the significance matrix, as shown.
#[derive(Debug, Serialize)]
struct MatrixCell {
    /// Row minus column, in points.
    text: String,
    /// `better`, `worse` (significant after Holm), `ns`, `untested` or `self`.
    class: &'static str,
    title: String,
    p_holm: Option<f64>,
}

fn matrix(b: &Leaderboard) -> Vec<Vec<MatrixCell>> {
    let sig = &b.significance;
    let n = b.rows.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let Some((sign, p)) = sig.between(i, j) else {
                        return MatrixCell {
                            text: String::new(),
                            class: "self",
                            title: String::new(),
                            p_holm: None,
                        };
                    };
                    let d = p.mean_diff.map(|d| sign * d);
                    let class = match (p.p_holm, d) {
                        (None, _) => "untested",
                        (Some(_), Some(d)) if p.significant && d > 0.0 => "better",
                        (Some(_), Some(_)) if p.significant => "worse",
                        _ => "ns",
                    };
                    let f = |v: Option<f64>| {
                        v.map(|v| format!("{v:.4}"))
                            .unwrap_or_else(|| "—".into())
                    };
                    let ci = p
                        .interval
                        .map(|c| {
                            let (lo, hi) = if sign > 0.0 {
                                (c.low, c.high)
                            } else {
                                (-c.high, -c.low)
                            };
                            format!("{:+.1} … {:+.1} pts", lo * 100.0, hi * 100.0)
                        })
                        .unwrap_or_else(|| "—".into());
                    MatrixCell {
                        text: d
                            .map(crate::format::points)
                            .unwrap_or_else(|| "—".into()),
                        class,
                        title: format!(
                            "{} common tasks; exact sign-flip test p = {}, Holm p = {}; 95% interval {ci}; exact McNemar p = {:.4}",
                            p.tasks,
                            f(p.p_value),
                            f(p.p_holm),
                            p.mcnemar_p
                        ),
                        p_holm: p.p_holm,
                    }
                })
                .collect()
        })
        .collect()
}

/// Common tasks named on the page, and task lines in its matrix (all are in
/// leaderboard.json).
const MAX_COMMON: usize = 500;

/// A row's name in a chart: its number on the page and its label, cut in the middle so
/// two models served from one URL still read apart.
fn chart_label(i: usize, label: &str) -> String {
    format!("{}. {}", i + 1, fit(label, 28))
}

/// One line of the task × model matrix as shown: each cell with the link that opens its
/// trial in that run's report (none when the run has no report.html where the page is).
#[derive(Debug, Serialize)]
struct MatrixLine<'a> {
    task_id: &'a str,
    category: &'a str,
    spread: f64,
    cells: Vec<MatrixLink<'a>>,
}

#[derive(Debug, Serialize)]
struct MatrixLink<'a> {
    cell: &'a crate::leaderboard::task_matrix::TaskCell,
    href: Option<String>,
}

/// The matrix lines, those that separate the rows most first, with their links; `reports`
/// holds each row's run folder relative to the page, when it has a report.
fn matrix_lines<'a>(b: &'a Leaderboard, reports: &[Option<String>]) -> Vec<MatrixLine<'a>> {
    let mut lines: Vec<&crate::leaderboard::task_matrix::TaskLine> = b.task_matrix.iter().collect();
    lines.sort_by(|x, y| {
        y.spread
            .total_cmp(&x.spread)
            .then(x.task_id.cmp(&y.task_id))
    });
    lines
        .into_iter()
        .take(MAX_COMMON)
        .map(|l| MatrixLine {
            task_id: &l.task_id,
            category: &l.category,
            spread: l.spread,
            cells: l
                .cells
                .iter()
                .zip(reports)
                .map(|(cell, dir)| MatrixLink {
                    cell,
                    href: dir
                        .as_ref()
                        .zip(cell.open_trial)
                        .map(|(dir, trial)| links::trial_in_report(dir, &l.task_id, trial)),
                })
                .collect(),
        })
        .collect()
}

/// Each row's run folder as a link from `out_dir`, when it has a report.html.
fn report_dirs(b: &Leaderboard, out_dir: &Path) -> Vec<Option<String>> {
    b.rows
        .iter()
        .map(|r| {
            let dir = Path::new(&r.run_dir);
            let has_report =
                std::fs::symlink_metadata(dir.join("report.html")).is_ok_and(|m| m.is_file());
            has_report
                .then(|| links::relative_dir(out_dir, dir))
                .flatten()
        })
        .collect()
}

/// Pass rate against cost per task where every row has a cost, else against tokens per
/// task where every row has tokens; nothing when neither is known for all.
fn cost_chart(b: &Leaderboard) -> Option<String> {
    let labels: Vec<String> = b
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| chart_label(i, &r.label))
        .collect();
    let points =
        |x: &dyn Fn(&crate::leaderboard::row::Row) -> Option<f64>| -> Option<Vec<Point<'_>>> {
            b.rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    Some(Point {
                        tag: (i + 1).to_string(),
                        label: &labels[i],
                        x: x(r)?,
                        y: r.pass_rate?,
                    })
                })
                .collect()
        };
    if let Some(p) = points(&|r| r.cost_per_task_usd) {
        return Some(pareto::chart(
            "Pass rate against cost per task (Pareto front: dashed)",
            "cost per task",
            |v| crate::format::usd(Some(v)),
            &p,
        ));
    }
    let p = points(&|r| r.tokens_per_task)?;
    Some(pareto::chart(
        "Pass rate against tokens per task (Pareto front: dashed)",
        "tokens per task",
        |v| crate::format::tokens(Some(v)),
        &p,
    ))
}

/// The page, with links relative to `out_dir` (where it is written).
pub fn render_leaderboard(b: &Leaderboard, out_dir: &Path) -> Result<String> {
    let env = environment()?;
    let labels: Vec<String> = b
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| chart_label(i, &r.label))
        .collect();
    let bars: Vec<Bar<'_>> = b
        .rows
        .iter()
        .zip(&labels)
        .map(|(r, l)| Bar::over_tasks(l, r.pass_rate, r.pass_rate_ci, r.tasks))
        .collect();
    let categories: Vec<&String> = b.categories.iter().take(MAX_CATEGORIES).collect();
    let reports = report_dirs(b, out_dir);
    let charts = [
        Some(svg::interval_bars(
            "Pass rate on the common tasks (95% Wilson interval over tasks)",
            &bars,
        )),
        cost_chart(b),
    ];
    render(
        &env,
        "leaderboard.html",
        context! {
            b => b,
            k => b.headline_k,
            categories => categories,
            more_categories => b.categories.len().saturating_sub(MAX_CATEGORIES),
            matrix => matrix(b),
            task_lines => matrix_lines(b, &reports),
            more_lines => b.task_matrix.len().saturating_sub(MAX_COMMON),
            reports => reports,
            excluded => b.excluded_tasks.iter().take(200).collect::<Vec<_>>(),
            common => b.common_tasks.iter().take(MAX_COMMON).collect::<Vec<_>>(),
            more_common => b.common_tasks.len().saturating_sub(MAX_COMMON),
            cost_per_solved => b.rows.iter().map(|r| r.cost_per_solved.as_ref().map(crate::format::ratio_usd).unwrap_or_else(|| "—".into())).collect::<Vec<_>>(),
            more_excluded => b.excluded_tasks.len().saturating_sub(200),
            chart => Value::from_safe_string(charts.into_iter().flatten().collect::<String>()),
            generated_at => nab_protocol::now_rfc3339(),
        },
    )
}
