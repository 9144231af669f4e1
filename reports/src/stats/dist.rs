//! Quantiles of the reference distributions (thin wrappers over statrs).

use statrs::distribution::{ContinuousCDF, StudentsT};

/// The Student-t quantile with `df` degrees of freedom; `None` when df < 1.
pub fn t_quantile(p: f64, df: f64) -> Option<f64> {
    if df < 1.0 {
        return None;
    }
    StudentsT::new(0.0, 1.0, df).ok().map(|t| t.inverse_cdf(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_tables() {
        // Reference values from mpmath at 30 digits.
        assert!((t_quantile(0.975, 27.0).unwrap() - 2.051_830_516_480).abs() < 1e-9);
        assert!((t_quantile(0.8, 27.0).unwrap() - 0.855_137_230_694).abs() < 1e-9);
        assert!((t_quantile(0.975, 1.0).unwrap() - 12.706_204_736_175).abs() < 1e-9);
        assert_eq!(t_quantile(0.975, 0.0), None);
    }
}
