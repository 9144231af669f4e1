//! Agreement between a human reviewer and each judge: the row a review report shows, the
//! pairwise form (plain Cohen's kappa over baseline/candidate/tie), and the warnings for
//! kappas too low to trust. Shared by the trial and the pairwise review.

use crate::kappa::{Interval, bootstrap_95, cohen_kappa, percent_agreement};
use nab_protocol::Winner;
use serde::Serialize;

/// Agreement between the human and one judge on one dimension or veto.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgreementRow {
    pub judge: String,
    /// `dimension` or `veto`.
    pub kind: String,
    pub id: String,
    pub n: usize,
    pub percent_agreement: Option<f64>,
    /// Quadratic-weighted for dimensions, plain Cohen's for vetoes; None when undefined.
    pub kappa: Option<f64>,
    pub kappa_ci95: Option<Interval>,
}

/// Human vs judge on pairwise preferences (nominal labels: plain Cohen's kappa), for
/// callers that collect human pairwise verdicts.
pub fn pairwise_agreement(
    judge: &str,
    pairs: &[(Winner, Winner)],
    bootstrap_resamples: usize,
    seed: u64,
) -> AgreementRow {
    let stat = |s: &[(Winner, Winner)]| cohen_kappa(s);
    AgreementRow {
        judge: judge.to_owned(),
        kind: "pairwise".into(),
        id: "winner".into(),
        n: pairs.len(),
        percent_agreement: percent_agreement(pairs),
        kappa: stat(pairs),
        kappa_ci95: bootstrap_95(pairs, stat, bootstrap_resamples, seed),
    }
}

/// A warning for each row whose kappa is below `threshold` or cannot be computed.
pub fn agreement_warnings(rows: &[AgreementRow], threshold: f64) -> Vec<String> {
    rows.iter()
        .filter_map(|r| match r.kappa {
            Some(k) if k < threshold => Some(format!("judge `{}` {} `{}`: kappa {k:.3} is below {threshold} (n = {}); do not trust this judge on it without recalibration", r.judge, r.kind, r.id, r.n)),
            None => Some(format!("judge `{}` {} `{}`: kappa is undefined (n = {}, a single label throughout); review more items", r.judge, r.kind, r.id, r.n)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Winner::*;

    #[test]
    fn pairwise_agreement_uses_plain_kappa_and_warns_below_threshold() {
        // Human vs judge over 6 pairs: agree on 4. Human marginals C 3, B 2, T 1; judge C 3, B 3.
        // p_o = 4/6; p_e = (3·3 + 2·3 + 1·0)/36 = 15/36; κ = (24/36 − 15/36)/(21/36) = 9/21.
        let pairs = [
            (Candidate, Candidate),
            (Candidate, Candidate),
            (Candidate, Baseline),
            (Baseline, Baseline),
            (Baseline, Baseline),
            (Tie, Candidate),
        ];
        let row = pairwise_agreement("j", &pairs, 200, 1);
        assert!((row.kappa.unwrap() - 9.0 / 21.0).abs() < 1e-12, "{row:?}");
        assert!((row.percent_agreement.unwrap() - 4.0 / 6.0).abs() < 1e-12);
        let w = agreement_warnings(&[row], 0.6);
        assert!(w.len() == 1 && w[0].contains("below 0.6"), "{w:?}");
        assert!(
            agreement_warnings(&[pairwise_agreement("j", &pairs[..2], 10, 1)], 0.6)[0]
                .contains("undefined")
        );
    }
}
