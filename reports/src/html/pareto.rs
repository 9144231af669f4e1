//! The cost-versus-pass-rate chart of the leaderboard (inline SVG): one dot per row, and
//! the Pareto front joined by a line — the rows no other row beats on both axes (at most
//! its cost and at least its pass rate, better on one). A row off the front pays more for
//! the same or less.

use super::svg::esc;
use std::fmt::Write;

/// One row's dot.
pub struct Point<'a> {
    /// Shown beside the dot (short) and on hover (whole).
    pub tag: String,
    pub label: &'a str,
    /// Cost (or tokens) per task.
    pub x: f64,
    /// Pass rate in [0, 1].
    pub y: f64,
}

/// Indexes of the points on the Pareto front, cheapest first.
pub fn front(points: &[Point<'_>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| {
        points[a]
            .x
            .total_cmp(&points[b].x)
            .then(points[b].y.total_cmp(&points[a].y))
    });
    let mut best = f64::NEG_INFINITY;
    order
        .into_iter()
        .filter(|&i| {
            let on = points[i].y > best;
            best = best.max(points[i].y);
            on
        })
        .collect()
}

/// The chart: `axis` names the x axis, `fmt` spells its values.
pub fn chart(title: &str, axis: &str, fmt: fn(f64) -> String, points: &[Point<'_>]) -> String {
    let (w, h, left, right, top, bottom) = (560.0, 300.0, 48.0, 24.0, 28.0, 40.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let max_x = points
        .iter()
        .map(|p| p.x)
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE)
        * 1.1;
    let px = |x: f64| left + x / max_x * pw;
    let py = |y: f64| top + (1.0 - y) * ph;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart" id="pareto" role="img" aria-label="{t}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg"><title>{t}</title><text x="0" y="16" class="ct">{t}</text>"#,
        t = esc(title)
    );
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = write!(
            s,
            r#"<line x1="{left}" y1="{y}" x2="{x2}" y2="{y}" class="grid"/><text x="{tx}" y="{ty}" class="tick" text-anchor="end">{p}%</text>"#,
            y = py(tick),
            x2 = left + pw,
            tx = left - 4.0,
            ty = py(tick) + 4.0,
            p = (tick * 100.0) as i32
        );
    }
    let _ = write!(
        s,
        r#"<line x1="{left}" y1="{y}" x2="{x2}" y2="{y}" class="axis"/><text x="{left}" y="{ty}" class="tick">0</text><text x="{x2}" y="{ty}" class="tick" text-anchor="end">{hi}</text><text x="{mid}" y="{ay}" class="tick" text-anchor="middle">{axis} →</text>"#,
        y = top + ph,
        x2 = left + pw,
        ty = top + ph + 14.0,
        hi = esc(&fmt(max_x)),
        mid = left + pw / 2.0,
        ay = h - 6.0,
        axis = esc(axis)
    );
    let on_front = front(points);
    let line: Vec<String> = on_front
        .iter()
        .map(|&i| format!("{:.1},{:.1}", px(points[i].x), py(points[i].y)))
        .collect();
    let _ = write!(
        s,
        r#"<polyline points="{}" class="front"/>"#,
        line.join(" ")
    );
    for (i, p) in points.iter().enumerate() {
        let class = if on_front.contains(&i) {
            "dot on-front"
        } else {
            "dot"
        };
        let _ = write!(
            s,
            r#"<g class="{class}" data-row="{i}"><circle cx="{x:.1}" cy="{y:.1}" r="5"/><text x="{tx:.1}" y="{ty:.1}" class="lbl">{tag}</text><title>{l}: {v} per task, {p:.1}% passed</title></g>"#,
            x = px(p.x),
            y = py(p.y),
            tx = px(p.x) + 8.0,
            ty = py(p.y) + 4.0,
            tag = esc(&p.tag),
            l = esc(p.label),
            v = esc(&fmt(p.x)),
            p = p.y * 100.0
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Point<'static> {
        Point {
            tag: String::new(),
            label: "",
            x,
            y,
        }
    }

    #[test]
    fn the_front_keeps_only_rows_nobody_beats_on_both_axes() {
        // 0: cheap and weak; 1: dear and best; 2: dearer than 3 for less; 3: middle.
        let p = [pt(1.0, 0.3), pt(5.0, 0.9), pt(4.0, 0.5), pt(2.0, 0.6)];
        assert_eq!(front(&p), vec![0, 3, 1]);
        // Equal cost: only the better one; equal everything: the first.
        let q = [pt(1.0, 0.5), pt(1.0, 0.7), pt(1.0, 0.7)];
        assert_eq!(front(&q), vec![1]);
    }

    #[test]
    fn the_chart_escapes_labels_and_marks_the_front() {
        let mut p = vec![pt(1.0, 0.3), pt(2.0, 0.2)];
        p[0].label = "<script>";
        let svg = chart("t", "cost", |v| format!("${v:.2}"), &p);
        assert!(svg.contains("&lt;script&gt;") && !svg.contains("<script>"));
        assert_eq!(svg.matches("dot on-front").count(), 1);
    }
}
