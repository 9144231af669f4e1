//! Hand-built inline SVG charts (no JavaScript, no external assets).

use crate::stats::Interval;
use std::fmt::Write;

pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One row of an interval chart: a label, a value in [0, 1] and its interval.
pub struct Bar<'a> {
    pub label: &'a str,
    pub value: Option<f64>,
    pub ci: Option<Interval>,
    /// Shown after the value, e.g. `n=6`.
    pub note: String,
}

impl<'a> Bar<'a> {
    /// A pass-rate bar over `n` tasks, noted `n=<n>`.
    pub fn over_tasks(
        label: &'a str,
        value: Option<f64>,
        ci: Option<Interval>,
        n: impl std::fmt::Display,
    ) -> Bar<'a> {
        Bar {
            label,
            value,
            ci,
            note: format!("n={n}"),
        }
    }
}

/// Horizontal bars with interval whiskers: pass rate per category.
pub fn interval_bars(title: &str, bars: &[Bar<'_>]) -> String {
    let (left, width, row) = (150.0, 300.0, 26.0);
    let height = 34.0 + row * bars.len() as f64 + 20.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart" role="img" aria-label="{t}" viewBox="0 0 560 {height}" width="560" height="{height}" xmlns="http://www.w3.org/2000/svg"><title>{t}</title>"#,
        t = esc(title)
    );
    let _ = write!(s, r#"<text x="0" y="16" class="ct">{}</text>"#, esc(title));
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let x = left + tick * width;
        let _ = write!(
            s,
            r#"<line x1="{x}" y1="26" x2="{x}" y2="{y2}" class="grid"/><text x="{x}" y="{ty}" class="tick" text-anchor="middle">{p}%</text>"#,
            y2 = height - 18.0,
            ty = height - 4.0,
            p = (tick * 100.0) as i32
        );
    }
    for (i, b) in bars.iter().enumerate() {
        let y = 30.0 + row * i as f64;
        let _ = write!(
            s,
            r#"<text x="{lx}" y="{ty}" text-anchor="end" class="lbl">{l}</text>"#,
            lx = left - 8.0,
            ty = y + 15.0,
            l = esc(b.label)
        );
        if let Some(v) = b.value {
            let _ = write!(
                s,
                r#"<rect x="{left}" y="{y1}" width="{w:.1}" height="14" class="bar"><title>{l}: {p:.1}%</title></rect>"#,
                y1 = y + 4.0,
                w = v * width,
                l = esc(b.label),
                p = v * 100.0
            );
        }
        if let Some(ci) = b.ci {
            let (x1, x2, ym) = (left + ci.low * width, left + ci.high * width, y + 11.0);
            let _ = write!(
                s,
                r#"<line x1="{x1:.1}" y1="{ym}" x2="{x2:.1}" y2="{ym}" class="whisk"/><line x1="{x1:.1}" y1="{a}" x2="{x1:.1}" y2="{b}" class="whisk"/><line x1="{x2:.1}" y1="{a}" x2="{x2:.1}" y2="{b}" class="whisk"/>"#,
                a = ym - 5.0,
                b = ym + 5.0
            );
        }
        let _ = write!(
            s,
            r#"<text x="{x}" y="{ty}" class="val">{v} {n}</text>"#,
            x = left + width + 8.0,
            ty = y + 15.0,
            v = b
                .value
                .map(|v| format!("{:.1}%", v * 100.0))
                .unwrap_or_else(|| "—".into()),
            n = esc(&b.note)
        );
    }
    s.push_str("</svg>");
    s
}

/// A histogram with median and p90 markers: tokens or steps per trial.
pub fn histogram(title: &str, values: &[f64], median: Option<f64>, p90: Option<f64>) -> String {
    let (w, h, left, bottom, top) = (560.0, 190.0, 40.0, 30.0, 26.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart" role="img" aria-label="{t}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg"><title>{t}</title><text x="0" y="16" class="ct">{t}</text>"#,
        t = esc(title)
    );
    if values.is_empty() {
        s.push_str(r#"<text x="40" y="90" class="lbl">no data recorded</text></svg>"#);
        return s;
    }
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let bins = 20usize;
    let span = if hi > lo { hi - lo } else { 1.0 };
    let mut counts = vec![0usize; bins];
    for v in values {
        let i = (((v - lo) / span) * bins as f64).floor() as usize;
        counts[i.min(bins - 1)] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let plot_w = w - left - 10.0;
    let plot_h = h - bottom - top;
    let bw = plot_w / bins as f64;
    for (i, c) in counts.iter().enumerate() {
        let bh = *c as f64 / max * plot_h;
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{bw1:.1}" height="{bh:.1}" class="bar"><title>{a:.0}–{b:.0}: {c}</title></rect>"#,
            x = left + i as f64 * bw,
            y = top + plot_h - bh,
            bw1 = bw - 1.0,
            a = lo + span * i as f64 / bins as f64,
            b = lo + span * (i + 1) as f64 / bins as f64
        );
    }
    let _ = write!(
        s,
        r#"<line x1="{left}" y1="{y}" x2="{x2}" y2="{y}" class="axis"/><text x="{left}" y="{ty}" class="tick">{lo}</text><text x="{x2}" y="{ty}" class="tick" text-anchor="end">{hi}</text><text x="{left2}" y="{top2}" class="tick" text-anchor="end">{max}</text>"#,
        y = top + plot_h,
        x2 = left + plot_w,
        ty = top + plot_h + 14.0,
        lo = super::num(Some(lo)),
        hi = super::num(Some(hi)),
        left2 = left - 4.0,
        top2 = top + 8.0,
        max = max as usize
    );
    for (name, v, class) in [("median", median, "med"), ("p90", p90, "p90")] {
        if let Some(v) = v {
            let x = left + (v - lo) / span * plot_w;
            let _ = write!(
                s,
                r#"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{y2}" class="{class}"/><text x="{tx:.1}" y="{ty}" class="tick {class}">{name} {val}</text>"#,
                y2 = top + plot_h,
                tx = x + 3.0,
                ty = if class == "med" {
                    top + 10.0
                } else {
                    top + 22.0
                },
                val = super::num(Some(v))
            );
        }
    }
    s.push_str("</svg>");
    s
}
