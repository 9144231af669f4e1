//! index.html of `nab view`: the runs table rendered here (autoescaped), and the index as
//! JSON for the page's script (trials, comparisons), embedded so that no string in it can
//! end its `<script>` element.

use super::{environment, render};
use crate::error::{ReportError, Result};
use crate::view::ViewIndex;
use minijinja::{Value, context};

/// The index as JSON safe inside `<script type="application/json">`: `<`, `>` and `&` are
/// written as `\u003c`, `\u003e`, `\u0026` (the same string to `JSON.parse`), so no
/// `</script>` or `<!--` can appear, whatever a model name or task id holds.
pub fn embedded_json(index: &ViewIndex) -> Result<String> {
    let json = serde_json::to_string(index).map_err(|e| ReportError::Render {
        template: "view.html".into(),
        message: format!("cannot encode the index: {e}"),
    })?;
    Ok(json
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026"))
}

pub fn render_view(index: &ViewIndex) -> Result<String> {
    let env = environment()?;
    render(
        &env,
        "view.html",
        context! {
            x => index,
            data => Value::from_safe_string(embedded_json(index)?),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_markup_survives_in_the_embedded_json() {
        let index = ViewIndex {
            v: 1,
            dir: "</script><img src=x onerror=alert(1)>".into(),
            runs: Vec::new(),
            sweeps: Vec::new(),
            notes: vec!["a & b <!--".into()],
            generated_at: String::new(),
        };
        let j = embedded_json(&index).unwrap();
        assert!(
            !j.contains('<') && !j.contains('>') && !j.contains('&'),
            "{j}"
        );
        let back: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(back["dir"], "</script><img src=x onerror=alert(1)>");
        assert_eq!(back["notes"][0], "a & b <!--");
    }
}
