//! Comparing two runs on the same tasks: per-task deltas and paired statistics.

use crate::error::{ReportError, Result};
use crate::format::{pct, usd};
use crate::run::{Run, TaskTrials};
use crate::stats::{self, Interval, SignFlip, growth::Growth};
use crate::summary::{RunSummary, trial_tokens};
use nab_protocol::{ErrorKind, TrialStatus};
use nab_protocol::{PairwiseVerdict, Winner};
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt::{Display, Write};

/// A task counts as passed in a run, for McNemar, when at least half its trials passed.
/// That discards most of the per-trial evidence, so McNemar is a secondary figure: its p is
/// two-sided, and no gate rule uses it.
pub const TASK_PASS_THRESHOLD: f64 = 0.5;

/// The range of a mean difference of pass rates: where the data cannot bound an end of its
/// interval (too few tasks), the end is this.
pub const PASS_RATE_RANGE: Interval = Interval {
    low: -1.0,
    high: 1.0,
};

/// The sample standard deviation of per-task differences (the MDE's s_d); `None` below two.
fn sd(d: &[f64]) -> Option<f64> {
    let m = d.len();
    if m < 2 {
        return None;
    }
    let mean = d.iter().sum::<f64>() / m as f64;
    Some((d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (m - 1) as f64).sqrt())
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub baseline_dir: String,
    pub candidate_dir: String,
    pub baseline: RunSummary,
    pub candidate: RunSummary,
    /// Every task of either run, in id order.
    pub tasks: Vec<TaskDelta>,
    pub paired: PairedStats,
    pub pairwise: Option<PairwiseSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TaskSide {
    pub scored: u32,
    pub passed: u32,
    pub errors: u32,
    /// passed / every trial: an error counts as not passed ([`TaskTrials::pass_rate`]).
    pub pass_rate: Option<f64>,
    /// passed / scored trials, shown beside.
    pub scored_pass_rate: Option<f64>,
    pub mean_tokens: Option<f64>,
    pub mean_steps: Option<f64>,
    /// Mean `cost_usd` over the trials that have one, errors included (they were paid for).
    pub mean_cost_usd: Option<f64>,
    pub violations: Vec<String>,
    /// Trials that made model calls but recorded 0 tokens both ways (see
    /// [`crate::summary::is_zero_token`]).
    pub zero_token_trials: u32,
    /// Error messages of trials whose replay found no recording (`error_kind: replay_miss`).
    pub replay_misses: Vec<String>,
    /// Model calls answered from the cassette only after normalization, over all trials.
    pub replay_drift: Vec<String>,
}

impl TaskSide {
    /// Every trial of the task, errors included.
    pub fn trials(&self) -> u32 {
        self.scored + self.errors
    }

    /// Share of this task's trials that ended in an infrastructure error.
    pub fn error_rate(&self) -> Option<f64> {
        let n = self.scored + self.errors;
        (n > 0).then(|| f64::from(self.errors) / f64::from(n))
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct TaskDelta {
    pub task_id: String,
    pub category: String,
    pub baseline: Option<TaskSide>,
    pub candidate: Option<TaskSide>,
    /// candidate − baseline pass rate, when both runs have the task.
    pub delta: Option<f64>,
    /// `improved`, `regressed`, `same`, `only_baseline` or `only_candidate`.
    pub change: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct McNemar {
    /// Tasks only the baseline passes.
    pub b: u32,
    /// Tasks only the candidate passes.
    pub c: u32,
    pub p_value: f64,
    pub baseline_only: Vec<String>,
    pub candidate_only: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PairedStats {
    /// Tasks in both runs: the sample size.
    pub tasks: usize,
    /// Tasks left out because only one run has them.
    pub excluded: Vec<String>,
    pub mean_diff: Option<f64>,
    /// The exact sign-flip test of the per-task differences and its 95% interval
    /// ([`crate::stats::signflip`]); within [−1, +1].
    pub test: Option<SignFlip>,
    pub mcnemar: McNemar,
    /// pass@k and pass^k of both runs over one common task set per k: the tasks with at
    /// least k trials in both runs (so a k never compares different tasks).
    pub pass_at_k: Vec<PairedK>,
    /// The paired MDE of this comparison (see [`crate::mde`]).
    pub mde: crate::mde::Mde,
    /// Geometric-mean ratio candidate/baseline of per-task mean tokens (scored trials),
    /// with a 95% t-interval over tasks ([`crate::stats::growth`]).
    pub tokens: Option<Growth>,
    pub steps: Option<Growth>,
    /// The same for per-task mean cost per trial (every trial with a cost).
    pub cost: Option<Growth>,
    /// candidate − baseline total cost (every trial with a cost); absent unless both have one.
    pub cost_delta_usd: Option<f64>,
}

/// pass@k and pass^k of both runs at one k, over the same tasks.
#[derive(Debug, Clone, Serialize)]
pub struct PairedK {
    pub k: u32,
    /// Tasks with at least k trials in both runs: the set every value here averages.
    pub tasks: usize,
    pub baseline_pass_at: Option<f64>,
    pub candidate_pass_at: Option<f64>,
    pub baseline_pass_hat: Option<f64>,
    pub candidate_pass_hat: Option<f64>,
}

/// pass@k and pass^k over the tasks with at least k trials on both sides.
fn paired_pass_at_k(sides: &[(crate::mde::Counts, crate::mde::Counts)]) -> Vec<PairedK> {
    let max_k = sides
        .iter()
        .map(|((nb, _), (nc, _))| (*nb).min(*nc))
        .max()
        .unwrap_or(0);
    let mean = |v: Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    (1..=max_k)
        .map(|k| {
            let common: Vec<_> = sides
                .iter()
                .filter(|((nb, _), (nc, _))| *nb >= k && *nc >= k)
                .collect();
            let f = |g: fn(u32, u32, u32) -> Option<f64>, cand: bool| {
                mean(
                    common
                        .iter()
                        .filter_map(|(b, c)| {
                            let (n, x) = if cand { c } else { b };
                            g(*n, *x, k)
                        })
                        .collect(),
                )
            };
            PairedK {
                k,
                tasks: common.len(),
                baseline_pass_at: f(stats::pass_at_k, false),
                candidate_pass_at: f(stats::pass_at_k, true),
                baseline_pass_hat: f(stats::pass_hat_k, false),
                candidate_pass_hat: f(stats::pass_hat_k, true),
            }
        })
        .collect()
}

#[derive(Debug, Clone, Serialize)]
pub struct PairwiseSummary {
    pub judgements: usize,
    pub baseline_wins: usize,
    pub candidate_wins: usize,
    pub ties: usize,
    pub inconsistency_rate: f64,
    /// The task-level preference for the candidate, per judge (see [`crate::pairwise`]).
    pub judges: Vec<crate::pairwise::JudgePreference>,
    /// Every judge combined per (task, trial) first, then by task.
    pub combined: Option<crate::pairwise::Preference>,
    /// Agreement between judges on the pairs several of them read.
    pub agreement: Option<crate::pairwise::Agreement>,
    pub records: Vec<PairwiseVerdict>,
}

fn summarize_pairwise(records: Vec<PairwiseVerdict>) -> Option<PairwiseSummary> {
    if records.is_empty() {
        return None;
    }
    let count = |w: Winner| records.iter().filter(|r| r.winner == w).count();
    Some(PairwiseSummary {
        judgements: records.len(),
        baseline_wins: count(Winner::Baseline),
        candidate_wins: count(Winner::Candidate),
        ties: count(Winner::Tie),
        inconsistency_rate: records.iter().filter(|r| !r.consistent).count() as f64
            / records.len() as f64,
        judges: crate::pairwise::per_judge(&records),
        combined: crate::pairwise::combined(&records),
        agreement: crate::pairwise::agreement(&records),
        records,
    })
}

fn side(run: &Run, t: &TaskTrials) -> TaskSide {
    let all: Vec<_> = t.trial_indexes.iter().map(|&i| &run.records[i]).collect();
    let recs: Vec<_> = all
        .iter()
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .collect();
    let mean =
        |vals: Vec<f64>| (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64);
    TaskSide {
        scored: t.scored,
        passed: t.passed,
        errors: t.errors,
        pass_rate: t.pass_rate(),
        scored_pass_rate: t.scored_pass_rate(),
        mean_tokens: mean(recs.iter().filter_map(|r| trial_tokens(r)).collect()),
        mean_steps: mean(
            recs.iter()
                .filter_map(|r| r.behaviour.steps.map(|s| s as f64))
                .collect(),
        ),
        mean_cost_usd: mean(all.iter().filter_map(|r| r.usage.cost_usd).collect()),
        violations: t
            .trial_indexes
            .iter()
            .flat_map(|&i| run.records[i].behaviour.violations.iter().cloned())
            .collect(),
        zero_token_trials: t
            .trial_indexes
            .iter()
            .filter(|&&i| crate::summary::is_zero_token(&run.records[i]))
            .count() as u32,
        replay_misses: t
            .trial_indexes
            .iter()
            .map(|&i| &run.records[i])
            .filter(|r| r.outcome.error_kind == Some(ErrorKind::ReplayMiss))
            .map(|r| {
                r.outcome
                    .error
                    .clone()
                    .unwrap_or_else(|| "replay miss".into())
            })
            .collect(),
        replay_drift: t
            .trial_indexes
            .iter()
            .flat_map(|&i| run.records[i].behaviour.replay_drift.iter().cloned())
            .collect(),
    }
}

/// Per-task (baseline, candidate) means of `f` over the paired tasks where both exist.
fn means_of(paired: &[&TaskDelta], f: fn(&TaskSide) -> Option<f64>) -> Vec<(f64, f64)> {
    paired
        .iter()
        .filter_map(|t| Some((f(t.baseline.as_ref()?)?, f(t.candidate.as_ref()?)?)))
        .collect()
}

/// Both runs with every task quarantined for either left out (of both).
fn quarantine_both(baseline: &Run, candidate: &Run) -> (Run, Run) {
    let as_entries = |r: &Run| -> Vec<crate::quarantine::QuarantineEntry> {
        r.quarantined
            .iter()
            .map(|q| crate::quarantine::QuarantineEntry {
                task: q.task_id.clone(),
                reason: q.reason.clone(),
            })
            .collect()
    };
    let b = baseline.clone().quarantine(&as_entries(candidate));
    // The filtered baseline lists the tasks quarantined for either run.
    let c = candidate.clone().quarantine(&as_entries(&b));
    (b, c)
}

/// An error when a pairwise verdict was judged on other runs than the two compared.
fn check_pairwise_runs(
    pairwise: &[PairwiseVerdict],
    baseline: &Run,
    candidate: &Run,
) -> Result<()> {
    let (b_id, c_id) = (baseline.run_id(), candidate.run_id());
    let Some(r) = pairwise.iter().find(|r| {
        (r.baseline_run.is_some() && r.baseline_run != b_id)
            || (r.candidate_run.is_some() && r.candidate_run != c_id)
    }) else {
        return Ok(());
    };
    Err(ReportError::PairwiseRunMismatch {
        task: r.task_id.clone(),
        judged: format!(
            "{} vs {}",
            r.baseline_run.as_deref().unwrap_or("?"),
            r.candidate_run.as_deref().unwrap_or("?")
        ),
        compared: format!(
            "{} vs {}",
            b_id.as_deref().unwrap_or("?"),
            c_id.as_deref().unwrap_or("?")
        ),
    })
}

/// One task's sides in both runs, its difference and how it changed.
fn task_delta(baseline: &Run, candidate: &Run, id: &str) -> TaskDelta {
    let b = baseline.task(id).map(|t| side(baseline, t));
    let c = candidate.task(id).map(|t| side(candidate, t));
    let category = candidate
        .task(id)
        .or(baseline.task(id))
        .map(|t| t.category.clone())
        .unwrap_or_default();
    // Every trial counts (an error as not passed), so a task both runs have always
    // has a difference: erroring cannot take a task out of the paired statistics.
    let delta = match (
        b.as_ref().and_then(|s| s.pass_rate),
        c.as_ref().and_then(|s| s.pass_rate),
    ) {
        (Some(x), Some(y)) => Some(y - x),
        _ => None,
    };
    let change = match (&b, &c, delta) {
        (Some(_), None, _) => "only_baseline",
        (_, _, Some(d)) if d > 1e-12 => "improved",
        (_, _, Some(d)) if d < -1e-12 => "regressed",
        (Some(_), Some(_), _) => "same",
        _ => "only_candidate",
    };
    TaskDelta {
        task_id: id.to_owned(),
        category,
        baseline: b,
        candidate: c,
        delta,
        change,
    }
}

/// McNemar's exact test over the paired tasks, a task passing at [`TASK_PASS_THRESHOLD`].
fn mcnemar(paired: &[&TaskDelta]) -> McNemar {
    let rate = |s: &Option<TaskSide>| s.as_ref().and_then(|s| s.pass_rate).unwrap_or(0.0);
    let mut mc = McNemar {
        b: 0,
        c: 0,
        p_value: 1.0,
        baseline_only: Vec::new(),
        candidate_only: Vec::new(),
    };
    for t in paired {
        let bp = rate(&t.baseline) >= TASK_PASS_THRESHOLD;
        let cp = rate(&t.candidate) >= TASK_PASS_THRESHOLD;
        if bp && !cp {
            mc.b += 1;
            mc.baseline_only.push(t.task_id.clone());
        } else if cp && !bp {
            mc.c += 1;
            mc.candidate_only.push(t.task_id.clone());
        }
    }
    mc.p_value = stats::mcnemar_exact(mc.b, mc.c);
    mc
}

/// The paired statistics over the tasks both runs have (`b_sum`, `c_sum`: the runs' summaries,
/// for the difference of total cost).
fn paired_stats(
    tasks: &[TaskDelta],
    draws: stats::Draws,
    b_sum: &RunSummary,
    c_sum: &RunSummary,
) -> PairedStats {
    let paired: Vec<&TaskDelta> = tasks.iter().filter(|t| t.delta.is_some()).collect();
    let diffs: Vec<f64> = paired.iter().filter_map(|t| t.delta).collect();
    let mc = mcnemar(&paired);
    let test = stats::sign_flip(&diffs, 0.95, PASS_RATE_RANGE, draws);
    let m = diffs.len();
    let sides: Vec<(crate::mde::Counts, crate::mde::Counts)> = paired
        .iter()
        .filter_map(|t| {
            let (b, c) = (t.baseline.as_ref()?, t.candidate.as_ref()?);
            Some(((b.trials(), b.passed), (c.trials(), c.passed)))
        })
        .collect();
    let mde = crate::mde::Mde::for_comparison(sd(&diffs), &sides);
    PairedStats {
        tasks: m,
        excluded: tasks
            .iter()
            .filter(|t| t.delta.is_none())
            .map(|t| t.task_id.clone())
            .collect(),
        mean_diff: (m > 0).then(|| diffs.iter().sum::<f64>() / m as f64),
        test,
        mcnemar: mc,
        mde,
        pass_at_k: paired_pass_at_k(&sides),
        tokens: stats::growth::growth(&means_of(&paired, |s| s.mean_tokens), 0.95),
        steps: stats::growth::growth(&means_of(&paired, |s| s.mean_steps), 0.95),
        cost: stats::growth::growth(&means_of(&paired, |s| s.mean_cost_usd), 0.95),
        cost_delta_usd: c_sum
            .usage
            .cost_usd
            .zip(b_sum.usage.cost_usd)
            .map(|(c, b)| c - b),
    }
}

impl Comparison {
    pub fn compute(
        baseline: &Run,
        candidate: &Run,
        pairwise: Vec<PairwiseVerdict>,
        seed: u64,
    ) -> Result<Comparison> {
        Self::compute_with(
            baseline,
            candidate,
            pairwise,
            stats::Draws {
                draws: stats::signflip::DRAWS,
                seed,
            },
            stats::bootstrap::RESAMPLES,
        )
    }

    /// [`Comparison::compute`] with the draws and seed of the sign-flip test's Monte Carlo
    /// fallback (used only when its exact distribution is too large), and the bootstrap
    /// resamples of the cost-per-solved-task intervals (0 leaves them out: the gate's
    /// simulations, which run it thousands of times and do not use them).
    pub fn compute_with(
        baseline: &Run,
        candidate: &Run,
        pairwise: Vec<PairwiseVerdict>,
        draws: stats::Draws,
        resamples: usize,
    ) -> Result<Comparison> {
        let (baseline, candidate) = &quarantine_both(baseline, candidate);
        let ids: BTreeSet<&str> = baseline
            .tasks
            .iter()
            .chain(&candidate.tasks)
            .map(|t| t.task_id.as_str())
            .collect();
        let shared = ids
            .iter()
            .filter(|id| baseline.task(id).is_some() && candidate.task(id).is_some())
            .count();
        check_pairwise_runs(&pairwise, baseline, candidate)?;
        if shared == 0 {
            return Err(ReportError::NoCommonTasks {
                baseline: baseline.dir.clone(),
                candidate: candidate.dir.clone(),
            });
        }
        let tasks: Vec<TaskDelta> = ids
            .into_iter()
            .map(|id| task_delta(baseline, candidate, id))
            .collect();
        let (b_sum, c_sum) = (
            RunSummary::compute_with(baseline, resamples),
            RunSummary::compute_with(candidate, resamples),
        );
        let paired = paired_stats(&tasks, draws, &b_sum, &c_sum);
        Ok(Comparison {
            baseline_dir: baseline.dir.display().to_string(),
            candidate_dir: candidate.dir.display().to_string(),
            baseline: b_sum,
            candidate: c_sum,
            tasks,
            paired,
            pairwise: summarize_pairwise(pairwise),
        })
    }

    /// The plain-text summary `nab compare` prints.
    pub fn terminal_summary(&self) -> String {
        let mut s = String::new();
        self.write_runs_table(&mut s);
        self.write_paired(&mut s);
        self.write_changed_tasks(&mut s);
        if let Some(pw) = &self.pairwise {
            write_pairwise(&mut s, pw);
        }
        s
    }

    /// The two runs side by side: size, pass rates, errors, tokens and cost.
    fn write_runs_table(&self, s: &mut String) {
        let (b, c) = (&self.baseline, &self.candidate);
        let mut row = |label: &str, b: &dyn Display, c: &dyn Display| {
            let _ = writeln!(s, "{label:<22} {b:>22} {c:>22}");
        };
        row("", &"baseline", &"candidate");
        row(
            "run",
            &b.run_id.as_deref().unwrap_or("?"),
            &c.run_id.as_deref().unwrap_or("?"),
        );
        row(
            "tasks × trials",
            &format!("{} / {}", b.tasks, b.trials),
            &format!("{} / {}", c.tasks, c.trials),
        );
        row("pass rate", &pct(b.pass_rate), &pct(c.pass_rate));
        row("95% CI (Wilson)", &ci(b.pass_rate_ci), &ci(c.pass_rate_ci));
        row(
            "over scored trials",
            &pct(b.scored_pass_rate),
            &pct(c.scored_pass_rate),
        );
        row(
            "infrastructure errors",
            &b.infra.error_trials,
            &c.infra.error_trials,
        );
        row(
            "error rate (trials)",
            &pct(b.error_rate),
            &pct(c.error_rate),
        );
        row("tokens", &b.usage.total_tokens, &c.usage.total_tokens);
        row("cost (USD)", &usd(b.usage.cost_usd), &usd(c.usage.cost_usd));
        let per_solved = |r: &Option<stats::ratio::Ratio>| {
            r.as_ref()
                .map(crate::format::ratio_usd)
                .unwrap_or_else(|| "—".into())
        };
        row(
            "cost per solved task",
            &per_solved(&b.cost_per_solved),
            &per_solved(&c.cost_per_solved),
        );
        let _ = writeln!(
            s,
            "(pass rate: every trial counts, an infrastructure error as not passed; the rate over scored trials leaves errors out)"
        );
    }

    /// The paired statistics: difference, its test and interval, ratios, pass@k and MDE.
    fn write_paired(&self, s: &mut String) {
        let (b, c, p) = (&self.baseline, &self.candidate, &self.paired);
        let _ = writeln!(s);
        let _ = writeln!(s, "paired over {} tasks (clustered by task):", p.tasks);
        let _ = writeln!(s, "  mean difference      {}", pts(p.mean_diff));
        if let Some(t) = &p.test {
            let _ = writeln!(
                s,
                "  95% interval         [{:+.1}, {:+.1}] pts (exact sign-flip test inverted{})",
                t.interval.low * 100.0,
                t.interval.high * 100.0,
                method_note(&t.method)
            );
            let _ = writeln!(
                s,
                "  sign-flip test       two-sided p = {:.4} (one-sided: drop {:.4}, rise {:.4})",
                t.p_two_sided, t.p_lower, t.p_upper
            );
        } else {
            let _ = writeln!(s, "  95% interval         —");
        }
        let _ = writeln!(
            s,
            "  McNemar (secondary)  b={} c={} two-sided p={:.4} (a task \"passes\" when at least half its trials pass)",
            p.mcnemar.b, p.mcnemar.c, p.mcnemar.p_value
        );
        for (what, g) in [
            ("tokens", &p.tokens),
            ("steps", &p.steps),
            ("cost", &p.cost),
        ] {
            if let Some(g) = g {
                let _ = writeln!(s, "  {:<20} {}", format!("{what} ratio"), growth_text(g));
            }
        }
        for k in &p.pass_at_k {
            let _ = writeln!(
                s,
                "  pass@{} / pass^{}       {} / {} → {} / {} over {} tasks with ≥ {} trials in both",
                k.k,
                k.k,
                pct(k.baseline_pass_at),
                pct(k.baseline_pass_hat),
                pct(k.candidate_pass_at),
                pct(k.candidate_pass_hat),
                k.tasks,
                k.k
            );
        }
        let _ = writeln!(s, "  detectable effect    {}", p.mde.shown());
        let _ = writeln!(s, "    {}", p.mde.explanation);
        let _ = writeln!(
            s,
            "    each run alone (as in its report.html): baseline {}, candidate {}",
            b.mde.shown(),
            c.mde.shown()
        );
        if !p.excluded.is_empty() {
            let _ = writeln!(s, "  excluded (in one run only): {}", p.excluded.join(", "));
        }
    }

    /// The tasks whose pass rate changed (or that only one run has), one a line.
    fn write_changed_tasks(&self, s: &mut String) {
        let changed: Vec<&TaskDelta> = self.tasks.iter().filter(|t| t.change != "same").collect();
        if changed.is_empty() {
            return;
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "changed tasks:");
        let frac = |x: &Option<TaskSide>| {
            x.as_ref()
                .map(|x| format!("{}/{}", x.passed, x.scored))
                .unwrap_or_else(|| "—".into())
        };
        for t in changed {
            let _ = writeln!(
                s,
                "  {:<40} {:>7} → {:<7} {:<14} {}",
                t.task_id,
                frac(&t.baseline),
                frac(&t.candidate),
                t.change,
                pts(t.delta)
            );
        }
    }
}

/// The pairwise judge's section of the terminal summary: counts, preference by judge, agreement.
fn write_pairwise(s: &mut String, pw: &PairwiseSummary) {
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "pairwise judge: candidate {} · baseline {} · tie {} (inconsistent {:.0}%), counts over all pairs (no interval: trials of a task are not independent; see by task)",
        pw.candidate_wins,
        pw.baseline_wins,
        pw.ties,
        pw.inconsistency_rate * 100.0
    );
    let _ = writeln!(
        s,
        "by task (preference for the candidate; 0.5 = none; 95% interval and p of no preference from the sign-flip test over tasks):"
    );
    for j in &pw.judges {
        let _ = writeln!(s, "  {:<28} {}", j.judge, preference_text(&j.preference));
    }
    if pw.judges.len() > 1
        && let Some(c) = &pw.combined
    {
        let _ = writeln!(s, "  {:<28} {}", "all judges combined", preference_text(c));
    }
    if let Some(a) = &pw.agreement {
        let _ = writeln!(
            s,
            "  judges agree on {:.0}% of {} shared pairs{}",
            a.rate * 100.0,
            a.items,
            match (a.kappa, a.kappa_method) {
                (Some(k), Some("fleiss")) => format!(
                    " (Fleiss' κ {k:.2} over {} pairs all judges read)",
                    a.kappa_items
                ),
                (Some(k), _) => format!(" (Cohen's κ {k:.2})"),
                (None, _) => String::new(),
            }
        );
    }
}

/// `0.620 [0.510, 0.730] p=0.0312 over 12 tasks (36 pairs), swap-consistent 92%`.
fn preference_text(p: &crate::pairwise::Preference) -> String {
    format!(
        "{:.3} {} p={} over {} tasks ({} pairs), swap-consistent {:.0}%",
        p.mean,
        p.interval
            .map(|i| format!("[{:.3}, {:.3}]", i.low, i.high))
            .unwrap_or_else(|| "[—]".into()),
        p.p_value
            .map(|v| format!("{v:.4}"))
            .unwrap_or_else(|| "—".into()),
        p.tasks,
        p.pairs,
        p.swap_consistency * 100.0
    )
}

/// A 95% interval of a share in percent, `[61.2, 78.9]` (`—` when there is none).
fn ci(v: Option<Interval>) -> String {
    v.map(|i| format!("[{:.1}, {:.1}]", i.low * 100.0, i.high * 100.0))
        .unwrap_or_else(|| "—".into())
}

/// A difference of shares in percentage points, `+4.2 pts` (`—` when there is none).
fn pts(v: Option<f64>) -> String {
    v.map(|v| format!("{:+.1} pts", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

/// ", 20000 Monte Carlo draws, seed S" when the test was sampled.
fn method_note(m: &stats::signflip::Method) -> String {
    match m {
        stats::signflip::Method::Exact => String::new(),
        stats::signflip::Method::MonteCarlo { draws, seed } => {
            format!(", {draws} Monte Carlo draws, seed {seed}")
        }
    }
}

/// `1.23× [1.05, 1.44] over 28 tasks (geometric mean of per-task ratios, 95% t-interval)`.
pub fn growth_text(g: &Growth) -> String {
    format!(
        "{:.2}× {} over {} tasks (geometric mean of per-task ratios, {:.0}% t-interval)",
        g.ratio,
        g.interval
            .map(|i| format!("[{:.2}, {:.2}]", i.low, i.high))
            .unwrap_or_else(|| "[—]".into()),
        g.tasks,
        g.level * 100.0
    )
}
