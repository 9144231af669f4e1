//! Host-side checks: the agent's output compared with expected data that stays on the
//! host (`expect_file`, `expect_stdout` in task.yaml). The expected file is read from the
//! task folder's `expected/`, which is never mounted into a container; the agent's side is
//! a file taken from the copied-out workspace archive, or a command's captured stdout.
//! What verify.log says about a difference is bounded: sizes, line counts and the first
//! differing line, cut short — never the whole of either side.

use crate::env::untrusted::read_capped;
use crate::env::workspace::{Picked, Picks};
use crate::task::{Compare, EXPECTED_CAP, ExpectFile, Task};
use nab_protocol::FailureReason;

/// Bytes of one line shown in a mismatch report.
const SHOWN_LINE: usize = 200;

/// The outcome of one check: `Ok(())` when it matched, else the reason and what to log.
pub(crate) type Checked = Result<(), (FailureReason, String)>;

/// Reads an `equals:` file of the task. The loader checked it; failing here is the suite's
/// fault (the folder changed under a run), never the agent's.
pub(crate) fn read_expected(task: &Task, rel: &str) -> std::io::Result<Vec<u8>> {
    let path = task.dir.join(rel);
    match read_capped(&path, EXPECTED_CAP) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("expected file {} is missing", path.display()),
        )),
        Err(e) => Err(std::io::Error::other(format!(
            "expected file {} {e}",
            path.display()
        ))),
    }
}

/// `expect_file`: the workspace file must be a regular file in the archive, within the cap,
/// equal to `expected`.
pub(crate) fn check_file(check: &ExpectFile, picks: &Picks, expected: &[u8]) -> Checked {
    let bad = |what: String| {
        Err((
            FailureReason::BadAgentOutput,
            format!("`{}` {what}; not compared", check.path),
        ))
    };
    match picks.get(&check.path) {
        None => Err((
            FailureReason::OutputMismatch,
            format!(
                "`{}` is not a file in the final workspace (missing, or under a symlinked folder)",
                check.path
            ),
        )),
        Some(Picked::NotRegular(what)) => bad(format!("is a {what}, not a regular file")),
        Some(Picked::TooLarge { size, cap }) => {
            bad(format!("is {size} bytes, more than the {cap}-byte cap"))
        }
        Some(Picked::File(got)) => compare(got, expected, check.compare).map_err(|d| {
            (
                FailureReason::OutputMismatch,
                format!("`{}` {d}", check.path),
            )
        }),
    }
}

/// How actual data differs from the expected: sizes, and the first differing line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Difference(String);

/// `Ok(())` when `got` equals `want` under `mode`; else a bounded description of the first
/// difference.
pub(crate) fn compare(got: &[u8], want: &[u8], mode: Compare) -> Result<(), Difference> {
    let (g, w) = match mode {
        Compare::Exact => (got, want),
        Compare::Trimmed => (got.trim_ascii(), want.trim_ascii()),
    };
    if g == w {
        return Ok(());
    }
    let lines = |b: &[u8]| b.split_inclusive(|&c| c == b'\n').count();
    let mut out = format!(
        "differs from the expected data (compare: {}): got {} bytes in {} lines, expected {} bytes in {} lines",
        match mode {
            Compare::Exact => "exact",
            Compare::Trimmed => "trimmed",
        },
        g.len(),
        lines(g),
        w.len(),
        lines(w)
    );
    let mut gl = g.split_inclusive(|&c| c == b'\n');
    let mut wl = w.split_inclusive(|&c| c == b'\n');
    let mut n = 1usize;
    loop {
        match (gl.next(), wl.next()) {
            (Some(a), Some(b)) if a == b => n += 1,
            (a, b) => {
                out.push_str(&format!(
                    "\n  first difference at line {n}:\n    got:      {}\n    expected: {}",
                    shown(a),
                    shown(b)
                ));
                break;
            }
        }
    }
    Err(Difference(out))
}

/// One line for the log: quoted with escapes (so a final newline, a CR or a control
/// character is visible), cut at [`SHOWN_LINE`] bytes.
fn shown(line: Option<&[u8]>) -> String {
    let Some(line) = line else {
        return "(end of text)".into();
    };
    let cut = line.len() > SHOWN_LINE;
    let text = String::from_utf8_lossy(&line[..line.len().min(SHOWN_LINE)]);
    let mut s = format!("\"{}\"", text.escape_debug());
    if cut {
        s.push_str(&format!(" … ({} bytes in all)", line.len()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_is_byte_for_byte_and_trimmed_ignores_only_outer_whitespace() {
        assert!(compare(b"a\nb\n", b"a\nb\n", Compare::Exact).is_ok());
        let d = compare(b"a\nb", b"a\nb\n", Compare::Exact)
            .unwrap_err()
            .to_string();
        assert!(d.contains("line 2"), "{d}");
        assert!(d.contains(r#"got:      "b""#), "{d}");
        assert!(d.contains(r#"expected: "b\n""#), "{d}");
        assert!(compare(b"  abc\r\n\n", b"abc", Compare::Trimmed).is_ok());
        assert!(compare(b"a bc", b"abc", Compare::Trimmed).is_err());
        let d = compare(b"x\n", b"x\ny\n", Compare::Exact)
            .unwrap_err()
            .to_string();
        assert!(d.contains("got:      (end of text)"), "{d}");
    }

    #[test]
    fn a_mismatch_report_is_bounded_whatever_the_sizes() {
        let want = vec![b'a'; 5 * 1024 * 1024];
        let mut got = want.clone();
        got[100] = b'b';
        let d = compare(&got, &want, Compare::Exact)
            .unwrap_err()
            .to_string();
        assert!(d.len() < 1000, "{} bytes", d.len());
        assert!(d.contains("5242880 bytes in all"), "{d}");
    }

    #[test]
    fn a_workspace_path_that_is_not_a_regular_file_is_the_agents_failure() {
        let picks = |p: Picked| {
            let mut s = Picks::new(["out.csv"], 10);
            s.found.insert(b"out.csv".to_vec(), p);
            s
        };
        let check = ExpectFile {
            path: "out.csv".into(),
            equals: "expected/out.csv".into(),
            compare: Compare::Exact,
        };
        let reason = |p: &Picks| check_file(&check, p, b"ok\n").err().map(|e| e.0);
        assert_eq!(reason(&picks(Picked::File(b"ok\n".to_vec()))), None);
        assert_eq!(
            reason(&picks(Picked::File(b"no\n".to_vec()))),
            Some(FailureReason::OutputMismatch)
        );
        assert_eq!(
            reason(&picks(Picked::NotRegular("symlink -> /etc/passwd".into()))),
            Some(FailureReason::BadAgentOutput)
        );
        assert_eq!(
            reason(&picks(Picked::TooLarge { size: 11, cap: 10 })),
            Some(FailureReason::BadAgentOutput)
        );
        assert_eq!(
            reason(&Picks::new(["out.csv"], 10)),
            Some(FailureReason::OutputMismatch)
        );
    }
}
