//! report.html for one run.

use super::svg::{self, Bar};
use super::{environment, pack, render};
use crate::error::Result;
use crate::run::{Run, TaskTrials};
use crate::summary::{RunSummary, trial_tokens};
use crate::trial::TrialView;
use minijinja::{Environment, Value, context};
use nab_protocol::TrialStatus;
use serde::Serialize;

#[derive(Serialize)]
struct TrialLink {
    /// Index into the run's records: the id of the embedded view.
    idx: usize,
    trial: u32,
    status: &'static str,
}

#[derive(Serialize)]
struct TaskRow {
    id: String,
    category: String,
    status: &'static str,
    scored: u32,
    passed: u32,
    errors: u32,
    rate: Option<f64>,
    mean_tokens: Option<f64>,
    mean_steps: Option<f64>,
    /// Mean `cost_usd` over the trials that have one (errors included: they were paid for).
    mean_cost_usd: Option<f64>,
    /// Sum of `cost_usd` over every trial of the task (errors too); absent when none has one.
    total_cost_usd: Option<f64>,
    trials: Vec<TrialLink>,
}

#[derive(Serialize)]
struct Blob {
    idx: usize,
    /// The trial's task and number: what a link from another page names.
    task: String,
    trial: u32,
    title: String,
    data: String,
}

fn status_word(s: TrialStatus) -> &'static str {
    match s {
        TrialStatus::Passed => "passed",
        TrialStatus::Failed => "failed",
        TrialStatus::Error => "error",
    }
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Renders the whole self-contained page, stamped with the time it is rendered.
pub fn render_report(run: &Run, summary: &RunSummary) -> Result<String> {
    render_report_at(run, summary, &nab_protocol::now_rfc3339())
}

/// [`render_report`] with the footer's generation time given, so a page rendered twice
/// from the same run can be byte-identical (`nab merge` stamps the merged run's end).
pub fn render_report_at(run: &Run, summary: &RunSummary, generated_at: &str) -> Result<String> {
    let env = environment()?;
    let rows: Vec<TaskRow> = run.tasks.iter().map(|t| task_row(run, t)).collect();
    let blobs = trial_blobs(&env, run)?;
    let charts = charts(run, summary);
    let mut categories: Vec<&str> = run.tasks.iter().map(|t| t.category.as_str()).collect();
    categories.sort_unstable();
    categories.dedup();
    render(
        &env,
        "report.html",
        context! {
            s => summary,
            mde_shown => summary.mde.shown(),
            cost_per_solved => summary.cost_per_solved.as_ref().map(crate::format::ratio_usd),
            meta => &run.meta,
            tasks_dir => run.meta.tasks_dir.as_ref().map(|p| p.display().to_string()),
            rows => rows,
            blobs => blobs,
            charts => charts,
            categories => categories,
            truncated_tail => run.truncated_tail,
            generated_at => generated_at,
            limits => context! {
                text => crate::trial::text::MAX_TEXT,
                collapse_chars => crate::trial::text::COLLAPSE_CHARS,
                collapse_lines => crate::trial::text::COLLAPSE_LINES,
                turns => crate::trial::MAX_TURNS,
                diff_lines => crate::trial::diff::MAX_DIFF_LINES,
                log_chars => crate::trial::MAX_LOG_CHARS,
            },
        },
    )
}

/// One task's row of the table, with links to its trials.
fn task_row(run: &Run, t: &TaskTrials) -> TaskRow {
    let recs: Vec<_> = t
        .trial_indexes
        .iter()
        .map(|&i| (i, &run.records[i]))
        .collect();
    let scored: Vec<_> = recs
        .iter()
        .filter(|(_, r)| r.outcome.status != TrialStatus::Error)
        .collect();
    TaskRow {
        id: t.task_id.clone(),
        category: t.category.clone(),
        status: t.status(),
        scored: t.scored,
        passed: t.passed,
        errors: t.errors,
        rate: t.pass_rate(),
        mean_tokens: mean(
            &scored
                .iter()
                .filter_map(|(_, r)| trial_tokens(r))
                .collect::<Vec<_>>(),
        ),
        mean_steps: mean(
            &scored
                .iter()
                .filter_map(|(_, r)| r.behaviour.steps.map(|s| s as f64))
                .collect::<Vec<_>>(),
        ),
        mean_cost_usd: mean(
            &recs
                .iter()
                .filter_map(|(_, r)| r.usage.cost_usd)
                .collect::<Vec<_>>(),
        ),
        total_cost_usd: recs
            .iter()
            .filter_map(|(_, r)| r.usage.cost_usd)
            .fold(None, |sum, c| Some(sum.unwrap_or(0.0) + c)),
        trials: recs
            .iter()
            .map(|(i, r)| TrialLink {
                idx: *i,
                trial: r.trial,
                status: status_word(r.outcome.status),
            })
            .collect(),
    }
}

/// Every trial's page, rendered and packed for embedding (opened from the table).
fn trial_blobs(env: &Environment<'_>, run: &Run) -> Result<Vec<Blob>> {
    // A copied run folder may not find its suite: then the trial views show no instruction,
    // rather than an instruction from some other suite.
    let tasks_dir = match nab_protocol::resolve_tasks_dir(&run.meta, &run.dir, None) {
        Ok(dir) => Some(dir),
        Err(e) => {
            tracing::warn!("the report shows no task instructions: {e}");
            None
        }
    };
    // Each view is read, rendered and compressed on its own: the page's main cost, spread
    // over the processors (the views come back in record order).
    let one = |idx: usize| -> Result<Blob> {
        let rec = &run.records[idx];
        let view = TrialView::load(&run.dir, tasks_dir.as_deref(), rec);
        let html = render(env, "trial.html", context! { t => view })?;
        Ok(Blob {
            idx,
            task: rec.task_id.clone(),
            trial: rec.trial,
            title: format!("{} · trial {}", rec.task_id, rec.trial),
            data: pack(&html),
        })
    };
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(run.records.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut parts: Vec<Vec<Result<Blob>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let idx = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if idx >= run.records.len() {
                            return done;
                        }
                        done.push(one(idx));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut blobs: Vec<Blob> = parts
        .iter_mut()
        .flat_map(std::mem::take)
        .collect::<Result<_>>()?;
    blobs.sort_by_key(|b| b.idx);
    if blobs.len() != run.records.len() {
        // A worker panicked (its views are missing): render the page without guessing.
        return Err(crate::error::ReportError::Render {
            template: "trial.html".into(),
            message: "a trial view could not be rendered".into(),
        });
    }
    Ok(blobs)
}

/// The page's SVG charts: pass rate by category, tokens and steps per scored trial.
fn charts(run: &Run, summary: &RunSummary) -> Value {
    let bars: Vec<Bar<'_>> = summary
        .categories
        .iter()
        .map(|c| Bar::over_tasks(&c.category, c.pass_rate, c.ci, c.tasks))
        .collect();
    let scored: Vec<_> = run
        .records
        .iter()
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .collect();
    let tokens: Vec<f64> = scored.iter().filter_map(|r| trial_tokens(r)).collect();
    let steps: Vec<f64> = scored
        .iter()
        .filter_map(|r| r.behaviour.steps.map(|s| s as f64))
        .collect();
    let d = &summary.distributions;
    context! {
        categories => Value::from_safe_string(svg::interval_bars("Pass rate by category (95% Wilson interval over tasks)", &bars)),
        tokens => Value::from_safe_string(svg::histogram("Tokens per trial", &tokens, d.tokens.median, d.tokens.p90)),
        steps => Value::from_safe_string(svg::histogram("Steps per trial", &steps, d.steps.median, d.steps.p90)),
    }
}
