//! The default gate, simulated: how often does it fail two identical agents (A/A), and how
//! often does it catch a real 15-point drop? Both go through the real code path: trial
//! records → `Run` → `Comparison` → `evaluate_gate` with the shipped `ci/gate.yaml`.
//!
//! Per-task pass rates are drawn from Beta(½, ½) (p = sin²(πU/2)): U-shaped like a real
//! suite, most tasks nearly always or nearly never solved and some in between. 28 tasks.
//! The figures printed here (run with `--nocapture`) are the ones in reports/README.md.

use nab_protocol::{TrialRecord, TrialStatus};
use nab_reports::Comparison;
use nab_reports::Run;
use nab_reports::evaluate_gate;
use nab_reports::{GateConfig, RuleOutcome};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::path::Path;

const TASKS: usize = 28;
const GATES: usize = 2_000;

/// Uniform in [0, 1) from the top 53 bits: fixed by the seed alone, whatever rand does.
fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

fn task_rates(rng: &mut ChaCha8Rng) -> Vec<f64> {
    (0..TASKS)
        .map(|_| (std::f64::consts::FRAC_PI_2 * uniform(rng)).sin().powi(2))
        .collect()
}

fn records(run: &str, rates: &[f64], trials: u32, rng: &mut ChaCha8Rng) -> Vec<TrialRecord> {
    let mut out = Vec::with_capacity(rates.len() * trials as usize);
    for (i, p) in rates.iter().enumerate() {
        for t in 0..trials {
            let mut r = TrialRecord::new(run, &format!("task-{i:02}"), "sim", t, "sim-agent");
            let pass = uniform(rng) < *p;
            r.status = if pass {
                TrialStatus::Passed
            } else {
                TrialStatus::Failed
            };
            r.reward = if pass { 1.0 } else { 0.0 };
            out.push(r);
        }
    }
    out
}

fn shipped_config() -> GateConfig {
    GateConfig::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/gate.yaml"))
        .expect("ci/gate.yaml parses")
}

/// Every rate lowered by the same δ (floored at 0), δ chosen so that the mean rate drops by
/// exactly `drop`: a true drop of the suite's pass rate, not of tasks that cannot drop.
fn lowered(rates: &[f64], drop: f64) -> Vec<f64> {
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

struct Tally {
    gates: usize,
    failed: usize,
    by_rule: BTreeMap<&'static str, usize>,
    /// The off-by-default point rule at 5 points, counted apart.
    point_drop_5: usize,
}

/// `GATES` gates at `trials` per task; the candidate's true rates are `drop` below.
fn simulate(trials: u32, drop: f64, seed: u64) -> Tally {
    let config = shipped_config();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tally = Tally {
        gates: GATES,
        failed: 0,
        by_rule: BTreeMap::new(),
        point_drop_5: 0,
    };
    let dir = Path::new(".");
    for _ in 0..GATES {
        let rates = task_rates(&mut rng);
        let cand_rates = if drop > 0.0 {
            lowered(&rates, drop)
        } else {
            rates.clone()
        };
        let b = Run::from_records(
            dir,
            Default::default(),
            records("a", &rates, trials, &mut rng),
            false,
        );
        let c = Run::from_records(
            dir,
            Default::default(),
            records("b", &cand_rates, trials, &mut rng),
            false,
        );
        let cmp = Comparison::compute_with_resamples(&b, &c, Vec::new(), 1, 0).unwrap();
        if cmp.paired.mean_diff.is_some_and(|d| d < -0.05 - 1e-12) {
            tally.point_drop_5 += 1;
        }
        let o = evaluate_gate(cmp, &config);
        if !o.passed() {
            tally.failed += 1;
        }
        for r in o.rules.iter().filter(|r| r.outcome == RuleOutcome::Fail) {
            *tally.by_rule.entry(r.id).or_default() += 1;
        }
    }
    tally
}

fn rate(n: usize, of: usize) -> f64 {
    n as f64 / of as f64
}

#[test]
fn the_default_gate_false_fails_identical_agents_at_most_5_percent() {
    let results: Vec<(u32, Tally)> = std::thread::scope(|s| {
        let hs: Vec<_> = [1u32, 3, 5]
            .into_iter()
            .map(|k| s.spawn(move || (k, simulate(k, 0.0, 0xA_A000 + u64::from(k)))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (k, t) in &results {
        eprintln!(
            "A/A, {TASKS} tasks × {k} trial(s), {} gates: default gate false-fails {:.2}% {:?}; \
             a 5-point point-drop rule alone would false-fail {:.2}%",
            t.gates,
            100.0 * rate(t.failed, t.gates),
            t.by_rule,
            100.0 * rate(t.point_drop_5, t.gates)
        );
    }
    for (k, t) in &results {
        assert!(
            rate(t.failed, t.gates) <= 0.05,
            "{k} trial(s): the default gate fails {} of {} identical pairs ({:?})",
            t.failed,
            t.gates,
            t.by_rule
        );
    }
}

#[test]
fn the_default_gate_catches_a_15_point_drop_at_5_trials_at_least_80_percent() {
    let t = simulate(5, 0.15, 0xD_0015);
    eprintln!(
        "15-point drop, {TASKS} tasks × 5 trials, {} gates: the default gate fails {:.2}% {:?}",
        t.gates,
        100.0 * rate(t.failed, t.gates),
        t.by_rule
    );
    assert!(
        rate(t.failed, t.gates) >= 0.8,
        "caught only {} of {} real 15-point drops ({:?})",
        t.failed,
        t.gates,
        t.by_rule
    );
}

#[test]
fn the_drop_is_exactly_15_points_of_the_mean() {
    let rates = [0.0, 0.05, 0.5, 0.9, 1.0];
    let l = lowered(&rates, 0.15);
    let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
    assert!((mean(&rates) - mean(&l) - 0.15).abs() < 1e-9);
    assert!(l.iter().all(|p| *p >= 0.0));
}
