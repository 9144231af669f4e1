//! How names from a run folder are shown: a model name or task id is whatever run.json and
//! results.jsonl say, so it is cut to a readable length (the JSON keeps it whole) and,
//! on the HTML page, escaped by the template like every other value.

/// The longest name shown on a page, in characters.
pub const MAX_NAME_CHARS: usize = 120;

/// `s` cut to [`MAX_NAME_CHARS`] characters with an ellipsis, one line.
pub fn short(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.chars().count() <= MAX_NAME_CHARS {
        return one_line;
    }
    let mut out: String = one_line.chars().take(MAX_NAME_CHARS - 1).collect();
    out.push('…');
    out
}

/// `s` in at most `n` characters for a chart, where the start says most: a model spec's
/// endpoint (`@http://…`) is dropped (the page's tables keep it), then the end is cut.
/// Two models served from one URL keep their names: `openai:model-a`, `openai:model-b`.
pub fn fit(s: &str, n: usize) -> String {
    let s = short(s);
    let without_url = match s.find('@') {
        Some(at) if s[at..].contains("://") => s[..at].to_owned(),
        _ => s,
    };
    let chars: Vec<char> = without_url.chars().collect();
    if chars.len() <= n || n == 0 {
        return without_url;
    }
    let mut out: String = chars[..n - 1].iter().collect();
    out.push('…');
    out
}

/// A row's name: `agent · model`.
pub fn label(agent: Option<&str>, model: Option<&str>) -> String {
    format!(
        "{} · {}",
        short(agent.unwrap_or("?")),
        short(model.unwrap_or("(no model)"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_and_control_characters_blanked() {
        assert_eq!(short("gpt\nx"), "gpt x");
        let long = "m".repeat(10_000);
        let s = short(&long);
        assert_eq!(s.chars().count(), MAX_NAME_CHARS);
        assert!(s.ends_with('…'));
        assert_eq!(label(Some("nab-agent"), None), "nab-agent · (no model)");
        let a = fit("nab-agent · openai:model-a@http://127.0.0.1:18611/v1", 28);
        let b = fit("nab-agent · openai:model-b@http://127.0.0.1:18611/v1", 28);
        assert_eq!(a, "nab-agent · openai:model-a");
        assert_ne!(a, b, "{a} / {b}: the two models still read apart");
        assert_eq!(fit(&"m".repeat(50), 28).chars().count(), 28);
        assert_eq!(fit("short", 28), "short");
    }
}
