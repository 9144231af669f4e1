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

/// A token count, in thousands from 10,000 on (`—` when unknown).
pub fn tokens(v: Option<f64>) -> String {
    v.map(|v| {
        if v >= 10_000.0 {
            format!("{:.1}k", v / 1000.0)
        } else {
            format!("{v:.0}")
        }
    })
    .unwrap_or_else(|| "—".into())
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
