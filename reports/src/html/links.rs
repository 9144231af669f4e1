//! Links from one page to another run's report: relative, so a folder of runs and the pages
//! over them can be moved or published together, and percent-encoded, since a folder name
//! or task id is whatever a run folder says.

use std::path::{Component, Path};

/// `s` percent-encoded as JavaScript's `encodeURIComponent` does, so the page's script can
/// decode what Rust wrote.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b'!' | b'*' | b'\'' | b'(' | b')' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The folder `to` as a URL path relative to the folder `from` (`../run-1`), each segment
/// encoded; `None` when either folder cannot be resolved (a run shown from a bundle).
pub fn relative_dir(from: &Path, to: &Path) -> Option<String> {
    let from = from.canonicalize().ok()?;
    let to = to.canonicalize().ok()?;
    let a: Vec<Component<'_>> = from.components().collect();
    let b: Vec<Component<'_>> = to.components().collect();
    let shared = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); a.len() - shared];
    for c in &b[shared..] {
        parts.push(encode_component(&c.as_os_str().to_string_lossy()));
    }
    Some(if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    })
}

/// The link that opens trial `trial` of `task` in the report of the run at `run_dir` (a
/// URL path from [`relative_dir`]); report.js reads the fragment.
pub fn trial_in_report(run_dir: &str, task: &str, trial: u32) -> String {
    format!(
        "{run_dir}/report.html#task={}&trial={trial}",
        encode_component(task)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_encoded_like_encode_uri_component() {
        assert_eq!(encode_component("a b/c#d&é"), "a%20b%2Fc%23d%26%C3%A9");
        assert_eq!(encode_component("x-1_y.z~(!)"), "x-1_y.z~(!)");
    }

    #[test]
    fn relative_dirs_walk_up_and_down() {
        let tmp = tempfile::tempdir().unwrap();
        let lb = tmp.path().join("sweep");
        let run = tmp.path().join("sweep/runs/a b");
        std::fs::create_dir_all(&run).unwrap();
        assert_eq!(relative_dir(&lb, &run).unwrap(), "runs/a%20b");
        assert_eq!(relative_dir(&run, &lb).unwrap(), "../..");
        assert_eq!(relative_dir(&lb, &lb).unwrap(), ".");
        assert_eq!(relative_dir(&lb, &tmp.path().join("missing")), None);
        assert_eq!(
            trial_in_report("runs/a%20b", "t/1", 2),
            "runs/a%20b/report.html#task=t%2F1&trial=2"
        );
    }
}
