//! `--max-cost-usd`: one running total of what the trials of a run (or of a whole sweep)
//! spent, as the gateway's usage priced them (`cost_usd`). Before a trial starts it asks
//! [`CostLimit::reached`]; once the total reaches the limit no new trial starts, while
//! those already running finish and are recorded. A trial that never started is not
//! recorded, so `--resume` runs it later.
//!
//! Costs come from token counts an upstream reports, so they may be absurd: the total
//! saturates at the largest finite number and a cost that is not a number counts as
//! everything (the run stops rather than spends on).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The limit, the running total and how many trials it kept from starting.
#[derive(Debug)]
pub struct CostLimit {
    limit: f64,
    spent: Mutex<f64>,
    skipped: AtomicUsize,
}

/// A `--max-cost-usd` value that is no limit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--max-cost-usd must be a positive, finite number of US dollars, not {0}")]
pub struct BadCostLimit(pub String);

impl CostLimit {
    /// A limit of `usd` dollars; refuses 0, negative, NaN and infinite values.
    pub fn new(usd: f64) -> Result<CostLimit, BadCostLimit> {
        if !usd.is_finite() || usd <= 0.0 {
            return Err(BadCostLimit(usd.to_string()));
        }
        Ok(CostLimit {
            limit: usd,
            spent: Mutex::new(0.0),
            skipped: AtomicUsize::new(0),
        })
    }

    pub fn limit(&self) -> f64 {
        self.limit
    }

    /// What the finished trials spent so far.
    pub fn spent(&self) -> f64 {
        *self.spent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the total reached the limit: no new trial may start.
    pub fn reached(&self) -> bool {
        self.spent() >= self.limit
    }

    /// Adds a finished trial's cost (`None`: the trial used no priced model, it spent
    /// nothing countable). Saturating: see the module comment.
    pub fn add(&self, usd: Option<f64>) {
        let Some(usd) = usd else { return };
        let usd = if usd.is_nan() {
            f64::MAX
        } else {
            usd.clamp(0.0, f64::MAX)
        };
        let mut spent = self.spent.lock().unwrap_or_else(|p| p.into_inner());
        *spent = (*spent + usd).min(f64::MAX);
    }

    /// Counts a trial the limit kept from starting.
    pub(crate) fn skip(&self) {
        self.skipped.fetch_add(1, Ordering::Relaxed);
    }

    /// Trials the limit kept from starting.
    pub fn skipped(&self) -> usize {
        self.skipped.load(Ordering::Relaxed)
    }

    /// The line a command prints when the limit kept trials from starting (`None` when it
    /// did not). `resume` is the command that continues the run.
    pub fn summary(&self, resume: &str) -> Option<String> {
        let n = self.skipped();
        (n > 0).then(|| {
            format!(
                "cost limit reached: USD {:.4} spent of --max-cost-usd {}; {n} trial(s) were not started and are not recorded; run them with: {resume} (with a higher --max-cost-usd, or without it)",
                self.spent(),
                self.limit
            )
        })
    }
}

/// A `--max-cost-usd` argument that is not a limit.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BadUsd {
    #[error("`{0}` is not a number of US dollars")]
    NotANumber(String, #[source] std::num::ParseFloatError),
    #[error(transparent)]
    Limit(#[from] BadCostLimit),
}

/// `--max-cost-usd`'s parser: a positive, finite number of dollars.
pub fn parse_usd(s: &str) -> Result<f64, BadUsd> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|e| BadUsd::NotANumber(s.to_string(), e))?;
    Ok(CostLimit::new(v)?.limit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_reaches_the_limit_and_counts_skips() {
        let l = CostLimit::new(0.5).unwrap();
        assert!(!l.reached());
        l.add(Some(0.2));
        l.add(None);
        assert!(!l.reached());
        l.add(Some(0.3));
        assert!(l.reached(), "reaching the limit exactly stops new trials");
        assert!((l.spent() - 0.5).abs() < 1e-12);
        assert_eq!(l.summary("nab run --resume"), None);
        l.skip();
        l.skip();
        let s = l.summary("nab run --resume --out x").unwrap();
        assert!(
            s.contains("2 trial(s) were not started") && s.contains("nab run --resume --out x"),
            "{s}"
        );
    }

    #[test]
    fn absurd_costs_saturate_and_stop_the_run() {
        for absurd in [f64::INFINITY, f64::MAX, f64::NAN] {
            let l = CostLimit::new(1.0).unwrap();
            l.add(Some(absurd));
            l.add(Some(absurd));
            assert!(l.reached(), "{absurd}");
            assert_eq!(l.spent(), f64::MAX, "{absurd}");
        }
        // A negative cost (impossible from the gateway) spends nothing, never refunds.
        let l = CostLimit::new(1.0).unwrap();
        l.add(Some(0.9));
        l.add(Some(-100.0));
        assert!((l.spent() - 0.9).abs() < 1e-12);
    }

    #[test]
    fn only_positive_finite_limits_parse() {
        assert_eq!(parse_usd("2.5"), Ok(2.5));
        for bad in ["0", "-1", "nan", "inf", "-0", "two", ""] {
            let e = parse_usd(bad).unwrap_err().to_string();
            assert!(e.contains("US dollars"), "{bad}: {e}");
        }
    }
}
