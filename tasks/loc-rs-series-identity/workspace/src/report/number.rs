/// A value as reports print it: at most three decimals, no trailing zeros, `NaN`,
/// `+Inf`/`-Inf`.
pub fn format_value(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let s = format!("{:.3}", v);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_value(1.0), "1");
        assert_eq!(format_value(1.25), "1.25");
        assert_eq!(format_value(2.0 / 3.0), "0.667");
        assert_eq!(format_value(-0.0001), "0");
        assert_eq!(format_value(f64::NAN), "NaN");
    }
}
