/// A sample value: a decimal float, `NaN`, `+Inf` or `-Inf`.
pub fn parse_value(s: &str) -> Result<f64, String> {
    match s {
        "NaN" => Ok(f64::NAN),
        "+Inf" | "Inf" => Ok(f64::INFINITY),
        "-Inf" => Ok(f64::NEG_INFINITY),
        _ => {
            if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
                return Err(format!("bad value {:?}", s));
            }
            s.parse::<f64>().map_err(|_| format!("bad value {:?}", s))
        }
    }
}

/// A sample time: integer milliseconds since the Unix epoch.
pub fn parse_timestamp(s: &str) -> Result<i64, String> {
    s.parse::<i64>().map_err(|_| format!("bad timestamp {:?}", s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse_value("1.5").unwrap(), 1.5);
        assert_eq!(parse_value("-2e3").unwrap(), -2000.0);
        assert!(parse_value("NaN").unwrap().is_nan());
        assert!(parse_value("infinity").is_err());
        assert_eq!(parse_timestamp("1772445600000").unwrap(), 1_772_445_600_000);
        assert!(parse_timestamp("1.5").is_err());
    }
}
