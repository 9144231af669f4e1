//! compare.html: two runs side by side.

use super::svg::{self, Bar};
use super::{environment, render};
use crate::compare::Comparison;
use crate::error::Result;
use minijinja::{Value, context};

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
                note: c
                    .map(|c| format!("n={}", c.scored_tasks))
                    .unwrap_or_default(),
            });
        }
    }
    render(
        &env,
        "compare.html",
        context! {
            c => cmp,
            mde_shown => cmp.paired.mde.shown(),
            baseline_mde_shown => cmp.baseline.mde.shown(),
            candidate_mde_shown => cmp.candidate.mde.shown(),
            chart => Value::from_safe_string(svg::interval_bars("Pass rate by category, baseline vs candidate", &bars)),
            generated_at => nab_protocol::now_rfc3339(),
        },
    )
}
