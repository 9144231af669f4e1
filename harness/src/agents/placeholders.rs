//! `{name}` placeholders in a declared agent's command line and variables. Substitution
//! is plain text into one argv element: nothing is ever parsed by a shell.

/// The placeholders a declaration may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// The model name the agent sends (`scripted` for a scripted model).
    Model,
    /// The instruction's text.
    Instruction,
    /// The path of the instruction file in the container.
    InstructionFile,
}

impl Placeholder {
    const ALL: [(&'static str, Placeholder); 3] = [
        ("model", Placeholder::Model),
        ("instruction", Placeholder::Instruction),
        ("instruction_file", Placeholder::InstructionFile),
    ];
}

/// The placeholders in `s`, in order. A `{` followed by a name and `}` is a placeholder;
/// an unknown name is an error (a typo would otherwise reach the agent as it is). Other
/// braces (JSON, shell) are left alone.
pub fn scan(s: &str) -> Result<Vec<Placeholder>, String> {
    let mut found = Vec::new();
    for (name, _) in tokens(s) {
        match Placeholder::ALL.iter().find(|(n, _)| *n == name) {
            Some((_, p)) => found.push(*p),
            None => {
                return Err(format!(
                    "unknown placeholder {{{name}}}; known: {{model}}, {{instruction}}, {{instruction_file}}"
                ));
            }
        }
    }
    Ok(found)
}

/// `s` with each placeholder replaced by `value(p)`. Call on text [`scan`] accepted.
pub fn fill(s: &str, value: impl Fn(Placeholder) -> String) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = 0;
    for (name, at) in tokens(s) {
        if let Some((_, p)) = Placeholder::ALL.iter().find(|(n, _)| *n == name) {
            out.push_str(&s[rest..at]);
            out.push_str(&value(*p));
            rest = at + name.len() + 2;
        }
    }
    out.push_str(&s[rest..]);
    out
}

/// Each `{identifier}` in `s` with the byte offset of its `{`.
fn tokens(s: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = s[from..].find('{').map(|i| i + from) {
        let body = &s[open + 1..];
        let len = body
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(body.len());
        if len > 0 && body[len..].starts_with('}') {
            out.push((&body[..len], open));
            from = open + len + 2;
        } else {
            from = open + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_found_filled_and_typos_refused() {
        let s = "openai/{model} {\"a\": 1} {instruction_file}{model}";
        assert_eq!(
            scan(s).unwrap(),
            [
                Placeholder::Model,
                Placeholder::InstructionFile,
                Placeholder::Model
            ]
        );
        let filled = fill(s, |p| match p {
            Placeholder::Model => "m".into(),
            Placeholder::InstructionFile => "/f".into(),
            Placeholder::Instruction => "i".into(),
        });
        assert_eq!(filled, "openai/m {\"a\": 1} /fm");
        assert!(scan("{modle}").unwrap_err().contains("{modle}"));
        // A value is inserted once: a placeholder inside it is not expanded again.
        assert_eq!(fill("{instruction}", |_| "{model}".into()), "{model}");
        assert_eq!(scan("${HOME} {} {A}").unwrap(), []);
    }
}
