//! compare.html: two runs side by side.

use super::svg::{self, Bar};
use super::{environment, render};
use crate::compare::Comparison;
use crate::error::Result;
use crate::format::ratio_usd;
use minijinja::{Value, context};

/// `1.23× [1.05, 1.44]`, or `—`.
fn growth(g: &Option<crate::stats::growth::Growth>) -> String {
    match g {
        None => "—".into(),
        Some(g) => format!(
            "{:.2}× {}",
            g.ratio,
            g.interval
                .map(|i| format!("[{:.2}, {:.2}]", i.low, i.high))
                .unwrap_or_else(|| "[—]".into())
        ),
    }
}

pub fn render_compare(cmp: &Comparison) -> Result<String> {
    let env = environment()?;
    let mut bars = Vec::new();
    let cats: Vec<&str> = {
        let mut c: Vec<&str> = cmp
            .baseline
            .categories
            .iter()
            .chain(&cmp.candidate.categories)
            .map(|c| c.category.as_str())
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let labels: Vec<(String, String)> = cats
        .iter()
        .map(|c| (format!("{c} · baseline"), format!("{c} · candidate")))
        .collect();
    for (cat, (lb, lc)) in cats.iter().zip(&labels) {
        for (label, s) in [(lb, &cmp.baseline), (lc, &cmp.candidate)] {
            let c = s.categories.iter().find(|x| x.category == *cat);
            bars.push(Bar {
                label,
                value: c.and_then(|c| c.pass_rate),
                ci: c.and_then(|c| c.ci),
                note: c.map(|c| format!("n={}", c.tasks)).unwrap_or_default(),
            });
        }
    }
    render(
        &env,
        "compare.html",
        context! {
            c => cmp,
            mde_shown => cmp.paired.mde.shown(),
            growth => context! {
                tokens => growth(&cmp.paired.tokens),
                steps => growth(&cmp.paired.steps),
                cost => growth(&cmp.paired.cost),
            },
            baseline_cost_per_solved => cmp.baseline.cost_per_solved.as_ref().map(ratio_usd),
            candidate_cost_per_solved => cmp.candidate.cost_per_solved.as_ref().map(ratio_usd),
            baseline_mde_shown => cmp.baseline.mde.shown(),
            candidate_mde_shown => cmp.candidate.mde.shown(),
            chart => Value::from_safe_string(svg::interval_bars("Pass rate by category, baseline vs candidate", &bars)),
            generated_at => nab_protocol::now_rfc3339(),
        },
    )
}
