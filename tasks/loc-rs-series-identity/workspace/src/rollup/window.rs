/// The start of the window of length `step` that holds `ts` (windows are aligned on the
/// epoch).
pub fn align_down(ts: i64, step: i64) -> i64 {
    ts - ts.rem_euclid(step)
}

/// The starts of the windows from the one holding `start` up to, not including, `end`.
pub fn window_starts(start: i64, end: i64, step: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut w = align_down(start, step);
    while w < end {
        out.push(w);
        w += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns() {
        assert_eq!(align_down(1_000, 300), 900);
        assert_eq!(align_down(900, 300), 900);
        assert_eq!(align_down(-1, 300), -300);
        assert_eq!(window_starts(0, 900, 300), vec![0, 300, 600]);
        assert_eq!(window_starts(100, 901, 300), vec![0, 300, 600, 900]);
    }
}
