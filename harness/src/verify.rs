//! The verifier phase: a fresh container with the agent's final workspace and the hidden
//! tests, each step run by argv under its own deadline. JUnit counts are read from
//! /nab/verify, a tmpfs only the verifier ever has.

use crate::sandbox::{ContainerId, ExecRequest, SandboxBackend, SandboxError};
use crate::task::Task;
use std::fmt::Write as _;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Bytes of each step's output kept in verify.log.
pub const STEP_OUTPUT_CAP: usize = 256 * 1024;
/// Largest JUnit file read back.
const JUNIT_CAP: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct VerifyResult {
    pub passed: bool,
    pub tests_passed: Option<u32>,
    pub tests_total: Option<u32>,
    /// Human-readable record of every step, for verify.log.
    pub log: String,
}

/// Runs every verify step in order in container `c`; stops at the first failing step.
pub async fn run_steps(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    task: &Task,
    cancel: &CancellationToken,
) -> Result<VerifyResult, SandboxError> {
    let mut result = VerifyResult {
        passed: true,
        ..Default::default()
    };
    let budget = Duration::from_secs_f64(task.spec.timeouts.verify_s);
    let started = std::time::Instant::now();
    for (i, step) in task.spec.verify.iter().enumerate() {
        let left = budget.saturating_sub(started.elapsed());
        let timeout = Duration::from_secs_f64(step.timeout_s).min(left);
        let req = ExecRequest {
            argv: step.argv.clone(),
            env: vec!["HOME=/tmp".into()],
            workdir: "/workspace".into(),
            timeout,
            output_cap: STEP_OUTPUT_CAP,
        };
        let out = backend.exec(c, &req, cancel).await?;
        let _ = writeln!(result.log, "$ {}", shell_quote(&step.argv));
        result.log.push_str(&out.output.to_text());
        let verdict = match (out.timed_out, out.exit_code) {
            (true, _) => format!(
                "step {i}: TIMEOUT after {:.1} s (limit {:.1} s)",
                out.duration.as_secs_f64(),
                timeout.as_secs_f64()
            ),
            (false, Some(0)) => format!("step {i}: exit 0 in {:.1} s", out.duration.as_secs_f64()),
            (false, code) => format!(
                "step {i}: FAILED, exit {code:?} in {:.1} s",
                out.duration.as_secs_f64()
            ),
        };
        let _ = writeln!(result.log, "[nab] {verdict}\n");
        let mut ok = !out.timed_out && out.exit_code == Some(0);
        if let (Some(junit), false) = (&step.junit, out.timed_out) {
            match read_junit(backend, c, junit, cancel).await? {
                Some((p, t)) => {
                    result.tests_passed = Some(result.tests_passed.unwrap_or(0) + p);
                    result.tests_total = Some(result.tests_total.unwrap_or(0) + t);
                    // An exit 0 is only believed when the report agrees: code under test runs
                    // inside the test process and could end it early with status 0.
                    if ok && (t == 0 || p < t) {
                        ok = false;
                        let _ = writeln!(
                            result.log,
                            "[nab] step {i}: exit 0 but {junit} reports {p}/{t} tests passed\n"
                        );
                    }
                }
                None => {
                    let _ = writeln!(
                        result.log,
                        "[nab] step {i}: no readable JUnit file at {junit}\n"
                    );
                    if ok {
                        ok = false;
                        let _ = writeln!(
                            result.log,
                            "[nab] step {i}: a step that declares `junit` must write it; exit 0 alone is not a pass\n"
                        );
                    }
                }
            }
        }
        if !ok {
            result.passed = false;
            break;
        }
    }
    Ok(result)
}

async fn read_junit(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    path: &str,
    cancel: &CancellationToken,
) -> Result<Option<(u32, u32)>, SandboxError> {
    let req = ExecRequest {
        argv: vec!["cat".into(), "--".into(), path.into()],
        env: vec![],
        workdir: "/".into(),
        timeout: Duration::from_secs(20),
        output_cap: JUNIT_CAP,
    };
    let out = backend.exec(c, &req, cancel).await?;
    if out.exit_code != Some(0) || out.output.truncated() {
        return Ok(None);
    }
    Ok(parse_junit(out.output.bytes()))
}

/// (passed, total) from a JUnit XML document: every `<testcase>` counts toward the total;
/// one with `<failure>`, `<error>` or `<skipped>` inside does not count as passed.
pub fn parse_junit(xml: &[u8]) -> Option<(u32, u32)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut buf = Vec::new();
    let (mut total, mut bad) = (0u32, 0u32);
    let mut in_case = false;
    let mut case_bad = false;
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => match e.name().as_ref() {
                b"testcase" => {
                    in_case = true;
                    case_bad = false;
                    total += 1;
                }
                b"failure" | b"error" | b"skipped" if in_case => case_bad = true,
                _ => {}
            },
            Ok(Event::Empty(e)) => match e.name().as_ref() {
                b"testcase" => total += 1,
                b"failure" | b"error" | b"skipped" if in_case => case_bad = true,
                _ => {}
            },
            Ok(Event::End(e)) if e.name().as_ref() == b"testcase" => {
                if case_bad {
                    bad += 1;
                }
                in_case = false;
            }
            Ok(Event::Eof) => break,
            Err(_) => return None,
            _ => {}
        }
        buf.clear();
    }
    Some((total - bad, total))
}

/// For logs only: how a person would type the argv.
fn shell_quote(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_counts_failures_errors_and_skips_as_not_passed() {
        let xml = br#"<?xml version="1.0"?><testsuites><testsuite tests="4">
            <testcase name="a"/>
            <testcase name="b"><failure message="x">trace</failure></testcase>
            <testcase name="c"><error/></testcase>
            <testcase name="d"></testcase>
            </testsuite></testsuites>"#;
        assert_eq!(parse_junit(xml), Some((2, 4)));
        assert_eq!(shell_quote(&["a b".into(), "c".into()]), "'a b' c");
    }
}
