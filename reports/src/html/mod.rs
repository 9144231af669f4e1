//! The HTML report and comparison, rendered with minijinja from the templates in
//! `reports/templates/` (compiled into the binary, so a report never depends on files
//! beside the executable).
//!
//! Self-contained: CSS and JavaScript are inlined, charts are inline SVG, and a
//! Content-Security-Policy forbids every network fetch. Trial views are rendered here,
//! gzip-compressed and embedded as base64; the browser expands one only when it is opened
//! (`DecompressionStream`), so the page stays light however long the transcripts are.

pub mod compare;
pub mod leaderboard;
pub mod links;
pub mod pareto;
pub mod report;
pub mod svg;
pub mod view;

use crate::error::{ReportError, Result};
use base64::Engine;
use flate2::Compression;
use flate2::write::GzEncoder;
use minijinja::{Environment, Value};
use std::io::Write;

pub use compare::render_compare;
pub use leaderboard::render_leaderboard;
pub use report::{render_report, render_report_at};
pub use view::render_view;

const TEMPLATES: &[(&str, &str)] = &[
    ("base.css", include_str!("../../templates/base.css")),
    ("report.js", include_str!("../../templates/report.js")),
    ("macros.html", include_str!("../../templates/macros.html")),
    ("report.html", include_str!("../../templates/report.html")),
    ("trial.html", include_str!("../../templates/trial.html")),
    ("compare.html", include_str!("../../templates/compare.html")),
    (
        "leaderboard.html",
        include_str!("../../templates/leaderboard.html"),
    ),
    ("view.html", include_str!("../../templates/view.html")),
    ("view.js", include_str!("../../templates/view.js")),
];

/// `0.6789` → `67.9%`; absent → `—`.
fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

/// `1234567` → `1,234,567`; fractional values keep one decimal.
fn num(v: Option<f64>) -> String {
    let Some(v) = v else { return "—".into() };
    if v.fract().abs() > 1e-9 && v.abs() < 1000.0 {
        return format!("{v:.1}");
    }
    let s = format!("{}", v.round() as i64);
    let (sign, digits) = s.strip_prefix('-').map(|d| ("-", d)).unwrap_or(("", &s));
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    format!("{sign}{out}")
}

/// Signed points: `-0.071` → `−7.1 pts`.
fn pts(v: Option<f64>) -> String {
    v.map(|v| format!("{:+.1} pts", v * 100.0))
        .unwrap_or_else(|| "—".into())
}

fn opt_f64(v: &Value) -> Option<f64> {
    if v.is_none() || v.is_undefined() {
        None
    } else {
        f64::try_from(v.clone()).ok()
    }
}

pub(crate) fn environment() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    for (name, src) in TEMPLATES {
        env.add_template(name, src)
            .map_err(|e| ReportError::Render {
                template: (*name).to_owned(),
                message: format!("{e:#}"),
            })?;
    }
    env.add_filter("pct", |v: Value| pct(opt_f64(&v)));
    env.add_filter("num", |v: Value| num(opt_f64(&v)));
    env.add_filter("pts", |v: Value| pts(opt_f64(&v)));
    env.add_filter("fixed", |v: Value, d: Option<usize>| {
        opt_f64(&v)
            .map(|x| format!("{x:.*}", d.unwrap_or(2)))
            .unwrap_or_else(|| "—".into())
    });
    env.add_filter("short", |v: Value| {
        crate::leaderboard::display::short(v.as_str().unwrap_or(&v.to_string()))
    });
    env.add_filter("usd", |v: Value| crate::format::usd(opt_f64(&v)));
    env.add_filter("secs", |v: Value| crate::format::seconds(opt_f64(&v)));
    env.add_filter("tok", |v: Value| crate::format::tokens(opt_f64(&v)));
    Ok(env)
}

pub(crate) fn render(env: &Environment<'_>, name: &str, ctx: Value) -> Result<String> {
    env.get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(|e| ReportError::Render {
            template: name.to_owned(),
            message: format!("{e:#}"),
        })
}

/// Every trial view embedded in a report page, unpacked: `(data-title, view HTML)`. For
/// tests that check what a view shows (the views are packed, so the page's text is not).
#[cfg(any(test, feature = "test-support"))]
pub fn trial_views(report_html: &str) -> Vec<(String, String)> {
    use std::io::Read;
    let mut out = Vec::new();
    for part in report_html
        .split("<script type=\"application/x-nab-trial\"")
        .skip(1)
    {
        let title = part
            .split("data-title=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .unwrap_or_default()
            .to_owned();
        let body = part
            .split_once('>')
            .and_then(|(_, b)| b.split_once("</script>"))
            .map(|(b, _)| b.trim())
            .unwrap_or_default();
        let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(body) else {
            continue;
        };
        let mut html = String::new();
        if flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut html)
            .is_ok()
        {
            out.push((title, html));
        }
    }
    out
}

/// gzip + base64, for a trial view embedded in the page.
pub(crate) fn pack(html: &str) -> String {
    // Views compress about eightfold: room for that up front, not grown by doubling.
    let mut gz = GzEncoder::new(Vec::with_capacity(html.len() / 4), Compression::new(6));
    // Writing into a Vec cannot fail.
    let _ = gz.write_all(html.as_bytes());
    let bytes = gz.finish().unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(pct(Some(0.678_91)), "67.9%");
        assert_eq!(pct(None), "—");
        assert_eq!(num(Some(1_234_567.0)), "1,234,567");
        assert_eq!(num(Some(-1000.0)), "-1,000");
        assert_eq!(num(Some(12.25)), "12.2");
        assert_eq!(pts(Some(-0.0714)), "-7.1 pts");
    }

    #[test]
    fn packed_views_round_trip() {
        use std::io::Read;
        let b = base64::engine::general_purpose::STANDARD
            .decode(pack("<p>hi</p>"))
            .unwrap();
        let mut s = String::new();
        flate2::read::GzDecoder::new(&b[..])
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, "<p>hi</p>");
    }
}
