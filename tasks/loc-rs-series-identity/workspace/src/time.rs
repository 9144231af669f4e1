//! Times (milliseconds since the Unix epoch, UTC) and durations as the command line
//! writes them.

use crate::error::{Error, Result};

/// `500ms`, `30s`, `15m`, `1h`, `1d`, or a bare number of milliseconds.
pub fn parse_duration(s: &str) -> Result<i64> {
    let bad = || Error::InvalidDuration(s.to_string());
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: i64 = num.parse().map_err(|_| bad())?;
    let mult = match unit {
        "" | "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(bad()),
    };
    n.checked_mul(mult).filter(|&d| d > 0).ok_or_else(bad)
}

/// `2026-03-02T09:00:00Z` (or `...:00.250Z`), or a bare number of milliseconds.
pub fn parse_time(s: &str) -> Result<i64> {
    if let Ok(ms) = s.parse::<i64>() {
        return Ok(ms);
    }
    let bad = || Error::InvalidTime(s.to_string());
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' || !s.ends_with('Z') {
        return Err(bad());
    }
    let num = |a: usize, z: usize| s[a..z].parse::<i64>().map_err(|_| bad());
    let (y, mo, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (h, mi, sec) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    let ms = if b[19] == b'.' {
        let frac = &s[20..s.len() - 1];
        if frac.len() != 3 {
            return Err(bad());
        }
        frac.parse::<i64>().map_err(|_| bad())?
    } else if b.len() == 20 {
        0
    } else {
        return Err(bad());
    };
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 59 {
        return Err(bad());
    }
    let days = days_from_civil(y, mo, d);
    Ok(((days * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms)
}

/// `2026-03-02T09:15:00Z`, with `.mmm` when the time is not on a whole second.
pub fn format_time(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s, frac) = (rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000);
    if frac == 0 {
        format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, mo, d, h, mi, s)
    } else {
        format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", y, mo, d, h, mi, s, frac)
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + if m <= 2 { 1 } else { 0 }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z").unwrap(), 0);
        assert_eq!(parse_time("2026-03-02T09:00:00Z").unwrap(), 1_772_442_000_000);
        assert_eq!(format_time(1_772_442_000_000), "2026-03-02T09:00:00Z");
        assert_eq!(format_time(1_772_442_000_250), "2026-03-02T09:00:00.250Z");
        assert!(parse_time("2026-13-02T09:00:00Z").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("15m").unwrap(), 900_000);
        assert_eq!(parse_duration("250").unwrap(), 250);
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("5w").is_err());
    }
}
