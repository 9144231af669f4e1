//! Simulations over the real code paths (feature `test-support`): trial records → `Run`
//! → `Comparison` → the gate; trial records → `Run`s → the leaderboard. They measure how
//! often the default gate fails two identical agents (and catches a real drop), and how
//! often a leaderboard's rank intervals hold every true rank at once. The tests run small
//! versions; the full figures (2,000 gates per row) come from the `#[ignore]`d tests,
//! printed with `--nocapture`, and are the ones in reports/README.md.
//!
//! Per-task pass rates are drawn from Beta(½, ½) (p = sin²(πU/2)): U-shaped like a real
//! suite, most tasks nearly always or nearly never solved and some in between. All draws
//! come from ChaCha8 through our own conversions, so a seed fixes every figure.

use crate::compare::Comparison;
use crate::gate::{GateConfig, RuleOutcome, evaluate};
use crate::run::Run;
use nab_protocol::{ErrorKind, RunMeta, TrialRecord, TrialStatus};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::path::Path;

/// Uniform in [0, 1) from the top 53 bits: fixed by the seed alone, whatever rand does.
fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u = uniform(rng).max(f64::MIN_POSITIVE);
    let v = uniform(rng);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A task of the simulated suite: its pass rate and its typical tokens and steps.
#[derive(Debug, Clone, Copy)]
struct SimTask {
    p: f64,
    tokens: f64,
    steps: f64,
}

fn suite(tasks: usize, rng: &mut ChaCha8Rng) -> Vec<SimTask> {
    (0..tasks)
        .map(|_| SimTask {
            p: (std::f64::consts::FRAC_PI_2 * uniform(rng)).sin().powi(2),
            // Log-uniform between 20k and 400k tokens per trial.
            tokens: (20_000f64.ln() + uniform(rng) * (20f64).ln()).exp(),
            steps: 5.0 + 35.0 * uniform(rng),
        })
        .collect()
}

/// Every rate lowered by the same δ (floored at 0), δ chosen so that the mean rate drops by
/// exactly `drop`: a true drop of the suite's pass rate, not of tasks that cannot drop.
pub fn lowered(rates: &[f64], drop: f64) -> Vec<f64> {
    let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
    let target = mean(rates) - drop;
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        let m = mean(&rates.iter().map(|p| (p - mid).max(0.0)).collect::<Vec<_>>());
        if m > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    rates.iter().map(|p| (p - hi).max(0.0)).collect()
}

/// What varies between simulated runs.
#[derive(Debug, Clone, Copy)]
pub struct Noise {
    /// Per-trial chance of an infrastructure error (status `error`, no tokens, no cost).
    pub error_rate: f64,
    /// σ of the log-normal per-trial noise on tokens and cost (steps get σ/2); 0: none.
    pub token_sigma: f64,
}

fn records(
    run: &str,
    tasks: &[SimTask],
    rates: &[f64],
    trials: u32,
    noise: Noise,
    rng: &mut ChaCha8Rng,
) -> Vec<TrialRecord> {
    let mut out = Vec::with_capacity(tasks.len() * trials as usize);
    for (i, (t, p)) in tasks.iter().zip(rates).enumerate() {
        for n in 0..trials {
            let mut r = TrialRecord::new(run, &format!("task-{i:02}"), "sim", n, "sim-agent");
            if uniform(rng) < noise.error_rate {
                r.outcome.status = TrialStatus::Error;
                r.outcome.error_kind = Some(ErrorKind::Sandbox);
                r.outcome.error = Some("docker: container create failed".into());
                out.push(r);
                continue;
            }
            let pass = uniform(rng) < *p;
            r.outcome.status = if pass {
                TrialStatus::Passed
            } else {
                TrialStatus::Failed
            };
            r.outcome.reward = f64::from(u8::from(pass));
            let tokens = t.tokens * (noise.token_sigma * normal(rng)).exp();
            r.usage.input_tokens = Some(tokens.round() as u64);
            r.usage.output_tokens = Some(0);
            r.behaviour.steps =
                Some((t.steps * (0.5 * noise.token_sigma * normal(rng)).exp()).round() as u64);
            r.usage.cost_usd = Some(tokens * 3e-6);
            out.push(r);
        }
    }
    out
}

/// One row of the gate simulation.
#[derive(Debug, Clone, Copy)]
pub struct GateSim {
    pub tasks: usize,
    pub trials: u32,
    pub gates: usize,
    /// The candidate's true drop of the mean pass rate (0: identical agents).
    pub drop: f64,
    pub noise: Noise,
    pub seed: u64,
}

/// How often the gate failed, and by which rules.
#[derive(Debug, Clone, Default)]
pub struct GateTally {
    pub gates: usize,
    pub failed: usize,
    pub by_rule: BTreeMap<&'static str, usize>,
    /// The off-by-default point rule at 5 points, counted apart.
    pub point_drop_5: usize,
    /// The token rule this gate replaced — Σ candidate / Σ baseline of per-task mean tokens
    /// above 1.5 — counted apart, for comparison.
    pub point_token_ratio: usize,
}

impl GateTally {
    pub fn rate(&self) -> f64 {
        self.failed as f64 / self.gates.max(1) as f64
    }
}

/// `sim.gates` gates through the real code path with `config`.
pub fn simulate_gates(sim: &GateSim, config: &GateConfig) -> GateTally {
    let mut rng = ChaCha8Rng::seed_from_u64(sim.seed);
    let mut tally = GateTally {
        gates: sim.gates,
        ..GateTally::default()
    };
    let dir = Path::new(".");
    for _ in 0..sim.gates {
        let tasks = suite(sim.tasks, &mut rng);
        let rates: Vec<f64> = tasks.iter().map(|t| t.p).collect();
        let cand_rates = if sim.drop > 0.0 {
            lowered(&rates, sim.drop)
        } else {
            rates.clone()
        };
        let b = records("a", &tasks, &rates, sim.trials, sim.noise, &mut rng);
        let c = records("b", &tasks, &cand_rates, sim.trials, sim.noise, &mut rng);
        let b = Run::from_records(dir, RunMeta::default(), b, false);
        let c = Run::from_records(dir, RunMeta::default(), c, false);
        let Ok(cmp) = Comparison::compute_with(&b, &c, Vec::new(), config.draws(), 0) else {
            continue;
        };
        if cmp.paired.mean_diff.is_some_and(|d| d < -0.05 - 1e-12) {
            tally.point_drop_5 += 1;
        }
        let (sb, sc) = cmp
            .tasks
            .iter()
            .filter_map(|t| {
                Some((
                    t.baseline.as_ref()?.mean_tokens?,
                    t.candidate.as_ref()?.mean_tokens?,
                ))
            })
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
        if sb > 0.0 && sc / sb > 1.5 {
            tally.point_token_ratio += 1;
        }
        let o = evaluate(cmp, config);
        if !o.passed() {
            tally.failed += 1;
        }
        for r in o.rules.iter().filter(|r| r.outcome == RuleOutcome::Fail) {
            *tally.by_rule.entry(r.id).or_default() += 1;
        }
    }
    tally
}

/// One row of the leaderboard simulation: `shifts.len()` agents, each the suite's rates
/// lowered by its shift (equal shifts: truly tied agents).
#[derive(Debug, Clone)]
pub struct RankSim {
    pub tasks: usize,
    pub trials: u32,
    pub pages: usize,
    pub shifts: Vec<f64>,
    pub noise: Noise,
    pub seed: u64,
}

/// How often every row's true rank was inside its interval at once, and how often a
/// significant matrix cell disagreed with the order of the ranking (never, by design).
#[derive(Debug, Clone, Default)]
pub struct RankTally {
    pub pages: usize,
    pub all_covered: usize,
    pub contradictions: usize,
    /// Pages where some pair was told apart (the intervals are not all [1, R]).
    pub informative: usize,
}

impl RankTally {
    pub fn coverage(&self) -> f64 {
        self.all_covered as f64 / self.pages.max(1) as f64
    }
}

/// Competition ranks of true means (closer than 1e-12: tied).
fn true_ranks(means: &[f64]) -> Vec<usize> {
    crate::stats::rank::competition_ranks(means)
}

/// `sim.pages` leaderboards through the real code path.
pub fn simulate_rank_coverage(sim: &RankSim) -> RankTally {
    let mut rng = ChaCha8Rng::seed_from_u64(sim.seed);
    let mut tally = RankTally {
        pages: sim.pages,
        ..RankTally::default()
    };
    for _ in 0..sim.pages {
        let tasks = suite(sim.tasks, &mut rng);
        let rates: Vec<Vec<f64>> = sim
            .shifts
            .iter()
            .map(|s| tasks.iter().map(|t| (t.p - s).clamp(0.0, 1.0)).collect())
            .collect();
        let means: Vec<f64> = rates
            .iter()
            .map(|r| r.iter().sum::<f64>() / r.len() as f64)
            .collect();
        let truth = true_ranks(&means);
        let runs: Vec<Run> = rates
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let label = format!("row{i}");
                let meta = RunMeta {
                    run_id: Some(label.clone()),
                    agent: Some(label.clone()),
                    model: Some("m".into()),
                    ..RunMeta::default()
                };
                let recs = records(&label, &tasks, r, sim.trials, sim.noise, &mut rng);
                Run::from_records(Path::new(&label), meta, recs, false)
            })
            .collect();
        let Ok(board) = crate::leaderboard::rank(runs, &crate::leaderboard::Options::default())
        else {
            continue;
        };
        let covered = board.rows.iter().all(|row| {
            let i: usize = row
                .agent
                .as_deref()
                .and_then(|a| a.strip_prefix("row"))
                .and_then(|n| n.parse().ok())
                .unwrap_or(usize::MAX);
            truth
                .get(i)
                .is_some_and(|t| row.rank.low <= *t && *t <= row.rank.high)
        });
        tally.all_covered += usize::from(covered);
        tally.informative += usize::from(board.significance.pairs.iter().any(|p| p.significant));
        // Rows are in ranking order: a significant cell must favour the row ranked above.
        tally.contradictions += board
            .significance
            .pairs
            .iter()
            .filter(|p| p.significant && p.mean_diff.is_some_and(|d| d < 0.0))
            .count();
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drop_is_exactly_that_many_points_of_the_mean() {
        let rates = [0.0, 0.05, 0.5, 0.9, 1.0];
        let l = lowered(&rates, 0.15);
        let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
        assert!((mean(&rates) - mean(&l) - 0.15).abs() < 1e-9);
        assert!(l.iter().all(|p| *p >= 0.0));
    }

    #[test]
    fn noise_and_errors_show_in_the_records() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let tasks = suite(28, &mut rng);
        let rates: Vec<f64> = tasks.iter().map(|t| t.p).collect();
        let noise = Noise {
            error_rate: 0.03,
            token_sigma: 1.0,
        };
        let recs = records("a", &tasks, &rates, 50, noise, &mut rng);
        let errors = recs
            .iter()
            .filter(|r| r.outcome.status == TrialStatus::Error)
            .count() as f64;
        assert!((errors / recs.len() as f64 - 0.03).abs() < 0.01, "{errors}");
        // The log of a task's tokens has sd σ = 1 around its typical value.
        let t0: Vec<f64> = recs
            .iter()
            .filter(|r| r.task_id == "task-00")
            .filter_map(|r| r.usage.input_tokens)
            .map(|t| (t as f64 / tasks[0].tokens).ln())
            .collect();
        let m = t0.iter().sum::<f64>() / t0.len() as f64;
        let sd = (t0.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (t0.len() - 1) as f64).sqrt();
        assert!((sd - 1.0).abs() < 0.3, "{sd}");
    }
}
