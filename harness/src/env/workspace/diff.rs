//! The patch of a trial: the final workspace against the original, git style. Everything
//! in it is the agent's data, so it is bounded: the line diff of one file has a deadline
//! (past it the file is summarised as "rewritten: N lines"; completely different inputs
//! make a line diff quadratic), the whole patch has a deadline and a byte cap (past them
//! the remaining files are listed, not shown), names are quoted as git quotes them (a
//! newline in a name cannot forge a header), and every changed file's size and sha256 are
//! given, so a binary, large or unshown file is still identified.

use super::quote::git_path;
use super::{Node, Snapshot};
use std::time::{Duration, Instant};

/// Bounds on one patch.
#[derive(Debug, Clone, Copy)]
pub(super) struct DiffLimits {
    /// Bytes of diff.patch, the closing list of files not shown excepted.
    pub patch_bytes: usize,
    /// Time for one file's line diff.
    pub file_deadline: Duration,
    /// Time for the whole patch.
    pub total_deadline: Duration,
    /// Files named in the closing list; the rest are counted.
    pub listed: usize,
}

impl Default for DiffLimits {
    fn default() -> Self {
        DiffLimits {
            patch_bytes: 4 * 1024 * 1024,
            file_deadline: Duration::from_secs(2),
            total_deadline: Duration::from_secs(30),
            listed: 2000,
        }
    }
}

/// What a side of a change is, on one line (names and link targets quoted).
fn describe(path: &[u8], n: Option<&Node>) -> String {
    match n {
        None => "absent".into(),
        Some(Node::Dir) => "folder".into(),
        Some(
            node @ Node::File {
                digest, size, text, ..
            },
        ) => format!(
            "{size} bytes, sha256 {}{}",
            hex::encode(digest),
            match (super::compiled_kind(path, node), text) {
                (Some(kind), _) => format!(", {kind}"),
                (None, Some(_)) => String::new(),
                (None, None) => ", binary or large".into(),
            }
        ),
        Some(Node::Symlink(t)) => format!("symlink to {}", git_path("", t.as_bytes())),
        Some(Node::Other(k)) => k.clone(),
    }
}

fn text(n: Option<&Node>) -> Option<String> {
    match n {
        None => Some(String::new()),
        Some(Node::File { text: Some(t), .. }) => Some(t.clone()),
        Some(Node::Symlink(t)) => Some(format!("symlink -> {t}\n")),
        _ => None,
    }
}

/// One file's section: the header, a line with both sides' size and hash, and the line
/// diff when both sides are text and it finishes in time.
fn section(path: &[u8], a: Option<&Node>, b: Option<&Node>, limits: &DiffLimits) -> String {
    let (old_name, new_name) = (git_path("a/", path), git_path("b/", path));
    let mut out = format!("diff --git {old_name} {new_name}\n");
    out.push_str(&format!(
        "# before: {}; after: {}\n",
        describe(path, a),
        describe(path, b)
    ));
    let (Some(old), Some(new)) = (text(a), text(b)) else {
        return out;
    };
    let deadline = Instant::now() + limits.file_deadline;
    let d = similar::TextDiff::configure()
        .deadline(deadline)
        .diff_lines(&old, &new);
    if Instant::now() >= deadline {
        out.push_str(&format!(
            "# rewritten: {} lines -> {} lines (the line diff ran past its {} s deadline)\n",
            old.lines().count(),
            new.lines().count(),
            limits.file_deadline.as_secs_f64()
        ));
        return out;
    }
    let header = |side: Option<&Node>, name: String| {
        if side.is_some() {
            name
        } else {
            "/dev/null".into()
        }
    };
    let u = d
        .unified_diff()
        .context_radius(3)
        .header(&header(a, old_name), &header(b, new_name))
        .to_string();
    if u.is_empty() {
        out.push_str("# mode changed\n");
    } else {
        out.push_str(&u);
        if !u.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The patch of `after` against `before` under the default limits.
pub(crate) fn diff(before: &Snapshot, after: &Snapshot) -> String {
    diff_with(before, after, &DiffLimits::default())
}

pub(super) fn diff_with(before: &Snapshot, after: &Snapshot, limits: &DiffLimits) -> String {
    let started = Instant::now();
    let mut out = String::new();
    let mut not_shown: Vec<String> = Vec::new();
    let mut unlisted = 0usize;
    let mut why_stopped = None;
    let keys: std::collections::BTreeSet<&Vec<u8>> =
        before.nodes.keys().chain(after.nodes.keys()).collect();
    for path in keys {
        let (a, b) = (before.nodes.get(path), after.nodes.get(path));
        if a == b || matches!((a, b), (Some(Node::Dir) | None, Some(Node::Dir) | None)) {
            continue;
        }
        if why_stopped.is_none() && started.elapsed() > limits.total_deadline {
            why_stopped = Some(format!(
                "its {} s deadline passed",
                limits.total_deadline.as_secs()
            ));
        }
        if why_stopped.is_none() {
            let s = section(path, a, b, limits);
            if out.len() + s.len() <= limits.patch_bytes {
                out.push_str(&s);
                continue;
            }
            why_stopped = Some(format!(
                "its cap of {} bytes was reached",
                limits.patch_bytes
            ));
        }
        if not_shown.len() < limits.listed {
            not_shown.push(format!(
                "{}: before: {}; after: {}",
                git_path("b/", path),
                describe(path, a),
                describe(path, b)
            ));
        } else {
            unlisted += 1;
        }
    }
    if let Some(why) = why_stopped {
        out.push_str(&format!(
            "# nab: diff.patch stops here ({why}); {} more changed file(s) not shown:\n",
            not_shown.len() + unlisted
        ));
        for l in &not_shown {
            out.push_str(&format!("#   {l}\n"));
        }
        if unlisted > 0 {
            out.push_str(&format!("#   ... and {unlisted} more\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> Node {
        super::super::file_node(text.as_bytes(), text.len() as u64, 0o644, true).unwrap()
    }

    fn snap(files: &[(&[u8], Node)]) -> Snapshot {
        Snapshot {
            nodes: files.iter().map(|(p, n)| (p.to_vec(), n.clone())).collect(),
        }
    }

    #[test]
    fn colliding_and_newline_names_stay_apart_and_cannot_forge_headers() {
        let before = snap(&[]);
        let after = snap(&[
            (b"\xff", file("one\n")),
            ("\u{fffd}".as_bytes(), file("two\n")),
            (b"x\ndiff --git a/forged b/forged", file("three\n")),
        ]);
        let d = diff(&before, &after);
        assert!(d.contains("diff --git \"a/\\377\" \"b/\\377\"\n"), "{d}");
        assert!(d.contains("\"b/\\357\\277\\275\""), "{d}");
        assert!(d.contains("+one\n") && d.contains("+two\n") && d.contains("+three\n"));
        // Exactly the three real headers, each at the start of a line.
        assert_eq!(d.matches("\ndiff --git").count() + 1, 3, "{d}");
        assert!(
            !d.lines().any(|l| l.starts_with("diff --git a/forged")),
            "{d}"
        );
    }

    #[test]
    fn a_quadratic_diff_falls_back_to_rewritten_at_its_deadline() {
        // Two texts with no line in common: the worst case of a line diff.
        let old: String = (0..40_000).map(|i| format!("old {i}\n")).collect();
        let new: String = (0..40_000).map(|i| format!("new {i}\n")).collect();
        let limits = DiffLimits {
            file_deadline: Duration::from_millis(50),
            ..DiffLimits::default()
        };
        let started = Instant::now();
        let d = diff_with(
            &snap(&[(b"f", file(&old))]),
            &snap(&[(b"f", file(&new))]),
            &limits,
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            d.contains("# rewritten: 40000 lines -> 40000 lines"),
            "{}",
            &d[..d.len().min(500)]
        );
    }

    #[test]
    fn the_patch_is_capped_and_lists_what_it_did_not_show_with_size_and_hash() {
        let files: Vec<(Vec<u8>, Node)> = (0..50)
            .map(|i| (format!("f{i:02}").into_bytes(), file(&"x\n".repeat(1000))))
            .collect();
        let after = Snapshot {
            nodes: files.into_iter().collect(),
        };
        let limits = DiffLimits {
            patch_bytes: 10_000,
            ..DiffLimits::default()
        };
        let d = diff_with(&snap(&[]), &after, &limits);
        let (shown, rest) = d.split_once("# nab: diff.patch stops here").unwrap();
        assert!(shown.len() <= 10_000);
        assert!(
            rest.contains("its cap of 10000 bytes was reached"),
            "{rest}"
        );
        assert!(rest.contains("#   b/f49: before: absent; after: 2000 bytes, sha256 "));
        let listed = rest.lines().filter(|l| l.starts_with("#   b/")).count();
        let shown_files = shown.matches("diff --git").count();
        assert_eq!(listed + shown_files, 50);
        let bin = Node::File {
            digest: [7; 32],
            size: 5,
            mode: 0o644,
            text: None,
            head: [0x7f, b'E', b'L', b'F'],
        };
        let d = diff(&snap(&[]), &snap(&[(b"bin", bin)]));
        assert!(
            d.contains(&format!(
                "after: 5 bytes, sha256 {}, ELF executable or object",
                "07".repeat(32)
            )),
            "{d}"
        );
    }
}
