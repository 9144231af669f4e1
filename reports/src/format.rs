//! How numbers read in every page and table nab-reports writes (the report, the comparison,
//! the trial pages, the leaderboard's HTML and Markdown): one spelling of a cost, a share, a
//! token count and a duration.

/// A share as a percentage with one decimal (`—` when there is none).
pub fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

/// Dollars: four decimals under a dollar, two above (`—` when unknown).
pub fn usd(v: Option<f64>) -> String {
    match v {
        None => "—".into(),
        // Cents alone would show a typical per-task cost ($0.0125) as $0.01.
        Some(v) if v.abs() < 1.0 => format!("${v:.4}"),
        Some(v) => format!("${v:.2}"),
    }
}

/// `$0.0321 [$0.0250, $0.0490]`: a ratio in dollars with its interval (an unbounded end is
/// `∞`; nothing solved is `— (nothing solved)`).
pub fn ratio_usd(r: &crate::stats::ratio::Ratio) -> String {
    match r.value {
        None => "— (nothing solved)".into(),
        Some(v) => format!(
            "{} [{}, {}]",
            usd(Some(v)),
            usd(r.low),
            r.high.map(|h| usd(Some(h))).unwrap_or_else(|| "∞".into())
        ),
    }
}

/// A token count: whole under a thousand, then thousands (`9.6k`) and millions (`1.25M`),
/// so one column never mixes `9613` and `15.6k` (`—` when unknown).
pub fn tokens(v: Option<f64>) -> String {
    v.map(|v| {
        if v >= 999_500.0 {
            format!("{:.2}M", v / 1e6)
        } else if v >= 999.5 {
            format!("{:.1}k", v / 1000.0)
        } else {
            format!("{v:.0}")
        }
    })
    .unwrap_or_else(|| "—".into())
}

/// A difference in points of pass rate, signed, one decimal: `+12.5`, and `+0.0`, never
/// `-0.0`, for a difference that rounds to nothing.
pub fn points(v: f64) -> String {
    let rounded = (v * 1000.0).round() / 10.0;
    format!("{:+.1}", if rounded == 0.0 { 0.0 } else { rounded })
}

/// A duration in seconds, minutes or hours (`—` when unknown).
pub fn seconds(v: Option<f64>) -> String {
    match v {
        None => "—".into(),
        Some(s) if s >= 3600.0 => format!("{:.1} h", s / 3600.0),
        Some(s) if s >= 60.0 => format!("{:.1} min", s / 60.0),
        Some(s) => format!("{s:.1} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_column_never_mixes_spellings() {
        assert_eq!(tokens(Some(9613.0)), "9.6k");
        assert_eq!(tokens(Some(15_600.0)), "15.6k");
        assert_eq!(tokens(Some(999.0)), "999");
        assert_eq!(tokens(Some(999.7)), "1.0k");
        assert_eq!(tokens(Some(1_250_000.0)), "1.25M");
        assert_eq!(tokens(None), "—");
    }

    #[test]
    fn a_difference_that_rounds_to_nothing_has_no_minus() {
        assert_eq!(points(-0.0), "+0.0");
        assert_eq!(points(-0.000_01), "+0.0");
        assert_eq!(points(-0.125), "-12.5");
        assert_eq!(points(0.3), "+30.0");
    }
}
