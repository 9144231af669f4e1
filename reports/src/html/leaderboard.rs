//! leaderboard.html: the ranking, categories and significance matrix of many runs.

use super::svg::{self, Bar};
use super::{environment, render};
use crate::error::Result;
use crate::leaderboard::Leaderboard;
use crate::leaderboard::MAX_CATEGORIES;
use minijinja::{Value, context};
use serde::Serialize;

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
                            .map(|d| format!("{:+.1}", d * 100.0))
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

/// Common tasks named on the page (all are in leaderboard.json).
const MAX_COMMON: usize = 500;

pub fn render_leaderboard(b: &Leaderboard) -> Result<String> {
    let env = environment()?;
    let bars: Vec<Bar<'_>> = b
        .rows
        .iter()
        .map(|r| Bar::over_tasks(&r.label, r.pass_rate, r.pass_rate_ci, r.tasks))
        .collect();
    let categories: Vec<&String> = b.categories.iter().take(MAX_CATEGORIES).collect();
    render(
        &env,
        "leaderboard.html",
        context! {
            b => b,
            k => b.headline_k,
            categories => categories,
            more_categories => b.categories.len().saturating_sub(MAX_CATEGORIES),
            matrix => matrix(b),
            excluded => b.excluded_tasks.iter().take(200).collect::<Vec<_>>(),
            common => b.common_tasks.iter().take(MAX_COMMON).collect::<Vec<_>>(),
            more_common => b.common_tasks.len().saturating_sub(MAX_COMMON),
            cost_per_solved => b.rows.iter().map(|r| r.cost_per_solved.as_ref().map(crate::format::ratio_usd).unwrap_or_else(|| "—".into())).collect::<Vec<_>>(),
            more_excluded => b.excluded_tasks.len().saturating_sub(200),
            chart => Value::from_safe_string(svg::interval_bars("Pass rate on the common tasks (95% Wilson interval over tasks)", &bars)),
            generated_at => nab_protocol::now_rfc3339(),
        },
    )
}
