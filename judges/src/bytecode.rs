//! Python's byte code out of the diff a judge or reviewer reads. Running the tests writes
//! `__pycache__/*.pyc` into the workspace, so a four-line fix arrives padded with a binary
//! block per imported module. Those sections are left out of the view and named in one line
//! at its top, so nothing is hidden: the harness's diff.patch keeps them, with their sizes
//! and hashes. A section goes only when the harness itself labelled the file Python byte
//! code (its second line, written from the file's name) — the agent cannot relabel a
//! source file.

/// How many left-out files the note names before it counts the rest.
const NAMED: usize = 20;

/// The label the harness's diff.patch gives a `.pyc` or `.pyo` file (see its `describe`).
const LABEL: &str = ", Python byte code";

/// `diff` without its Python byte-code sections, and a note naming them when there were any.
pub fn set_aside_bytecode(diff: &str) -> String {
    let mut kept = String::with_capacity(diff.len());
    let mut left_out: Vec<&str> = Vec::new();
    for section in crate::diff_budget::sections(diff) {
        let mut lines = section.lines();
        let header = lines.next().unwrap_or("");
        let sizes = lines.next().unwrap_or("");
        match header.strip_prefix("diff --git ") {
            Some(names)
                if sizes.starts_with("# before: ")
                    && sizes.contains(LABEL)
                    && (names.ends_with(".pyc") || names.ends_with(".pyo")) =>
            {
                left_out.push(names.split(" b/").next().unwrap_or(names));
            }
            _ => kept.push_str(section),
        }
    }
    if left_out.is_empty() {
        return diff.to_owned();
    }
    let mut names: Vec<String> = left_out
        .iter()
        .take(NAMED)
        .map(|n| n.trim_start_matches("a/").to_owned())
        .collect();
    if left_out.len() > NAMED {
        names.push(format!("and {} more", left_out.len() - NAMED));
    }
    format!(
        "# nab: {} Python byte-code file(s) left out of this view (written when Python imports a module; diff.patch has them): {}\n{kept}",
        left_out.len(),
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIX: &str = "diff --git a/app.py b/app.py\n# before: 10 bytes, sha256 aa; after: 12 bytes, sha256 bb\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";

    fn pyc(name: &str) -> String {
        format!(
            "diff --git a/{name} b/{name}\n# before: absent; after: 300 bytes, sha256 cc, Python byte code\n"
        )
    }

    #[test]
    fn byte_code_sections_are_named_not_shown() {
        let diff = format!(
            "{}{FIX}{}",
            pyc("__pycache__/app.cpython-311.pyc"),
            pyc("tests/__pycache__/t.cpython-311.pyc")
        );
        let view = set_aside_bytecode(&diff);
        assert!(
            view.starts_with("# nab: 2 Python byte-code file(s) left out"),
            "{view}"
        );
        assert!(
            view.contains("__pycache__/app.cpython-311.pyc, tests/__pycache__/t.cpython-311.pyc")
        );
        assert!(view.contains(FIX), "the fix is whole: {view}");
        assert_eq!(view.matches("diff --git").count(), 1);
    }

    #[test]
    fn a_source_file_named_like_byte_code_by_the_agent_stays() {
        // The label comes from the harness; a section whose second line lacks it stays.
        let forged = "diff --git a/evil.py b/evil.py\n# before: absent; after: 9 bytes, sha256 dd\n+Python byte code\n";
        assert_eq!(set_aside_bytecode(forged), forged);
        assert_eq!(set_aside_bytecode(FIX), FIX);
        let many: String = (0..30).map(|i| pyc(&format!("m{i}.pyc"))).collect();
        let view = set_aside_bytecode(&many);
        assert!(
            view.contains("and 10 more") && view.starts_with("# nab: 30 "),
            "{view}"
        );
    }
}
