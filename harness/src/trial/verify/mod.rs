//! The verifier phase: a fresh container with the agent's final workspace and the hidden
//! tests, each step run by argv under its own deadline.
//!
//! A verdict rests only on what a process the code under test cannot reach says or writes
//! (DESIGN.md, trust model). So the verifier has two users:
//! - the verifier user ([`crate::env::sandbox::VERIFIER_UID`]) runs the hidden tests. The tests,
//!   the runner's scratch and its reports ([`stage::SCRATCH`]) belong to it, mode 0700;
//! - the sandbox user (uid 1000, the agent's) runs every piece of code from the workspace:
//!   builds (`user: sandbox` steps), and the programs and probes the tests ask the broker to
//!   run. The workspace is made 0700 to it before any step, so the runner cannot even load
//!   workspace code by mistake.
//!
//! With each verifier step nab starts the broker (`/nab/lib/broker.py`) as the sandbox
//! user, from outside (beside the step, whose side waits for its socket); after each step every process of the sandbox user is killed before
//! anything of the step is read. JUnit reports are read as the verifier user and judged with
//! the trial's canaries set apart ([`crate::trial::canary`], [`crate::trial::junit`]); when they all
//! passed, their test ids must be the task's pinned set ([`crate::task::pinned`]). Host-side
//! checks ([`crate::trial::expect`]) run in the same order; each counts as one test.

pub(crate) mod stage;

use crate::env::sandbox::{
    ContainerId, ExecOutcome, ExecRequest, ExecUser, SandboxBackend, SandboxError,
};
use crate::env::workspace::Picks;
use crate::task::{
    EXPECTED_CAP, ExpectFile, ExpectStdout, StepUser, Task, VerifierMode, VerifyStep,
};
use crate::trial::canary::Canary;
use crate::trial::expect;
use crate::trial::junit::{self, Verdict};
use nab_protocol::FailureReason;
use std::fmt::Write as _;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Bytes of each step's output kept in verify.log.
pub(crate) const STEP_OUTPUT_CAP: usize = 256 * 1024;
/// Largest JUnit file read back.
const JUNIT_CAP: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct VerifyResult {
    /// Why the verdict is not a pass; `None` when every step passed.
    pub failure: Option<FailureReason>,
    pub tests_passed: Option<u32>,
    pub tests_total: Option<u32>,
    /// Ids (`classname::name`) of the tests the JUnit reports list, the canaries left out.
    pub test_ids: Vec<String>,
    /// Human-readable record of every step, for verify.log.
    pub log: String,
}

/// How a step's user runs: environment and working folder.
fn exec_for(user: StepUser, argv: &[String], timeout: Duration, output_cap: usize) -> ExecRequest {
    match user {
        StepUser::Verifier => ExecRequest {
            argv: argv.to_vec(),
            user: ExecUser::Verifier,
            env: vec![
                format!("HOME={}", stage::SCRATCH),
                format!("TMPDIR={}", stage::SCRATCH),
                format!("PYTHONPATH={}", stage::LIB),
                "PYTHONDONTWRITEBYTECODE=1".into(),
                format!("NAB_BROKER={}", stage::BROKER_SOCKET),
                "LANG=C.UTF-8".into(),
            ],
            workdir: stage::TESTS.into(),
            timeout,
            output_cap,
        },
        StepUser::Sandbox => ExecRequest {
            argv: argv.to_vec(),
            user: ExecUser::Sandbox,
            env: vec![
                "HOME=/tmp".into(),
                "LANG=C.UTF-8".into(),
                "PYTHONDONTWRITEBYTECODE=1".into(),
                "PYTHONPYCACHEPREFIX=/tmp/nab-pycache".into(),
            ],
            workdir: "/workspace".into(),
            timeout,
            output_cap,
        },
    }
}

/// Runs `req` in `c`. `Ok(None)` when the container is no longer running: the code under
/// test stopped it (or got it killed), which is the trial's failure, not an infrastructure
/// error. An engine that cannot be reached is still an error.
async fn exec_unless_gone(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    req: &ExecRequest,
    cancel: &CancellationToken,
) -> Result<Option<ExecOutcome>, SandboxError> {
    unless_gone(backend, c, backend.exec(c, req, cancel).await).await
}

/// `Ok(None)` in place of an engine error when the container has stopped.
async fn unless_gone<T>(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    result: Result<T, SandboxError>,
) -> Result<Option<T>, SandboxError> {
    match result {
        Ok(v) => Ok(Some(v)),
        Err(e @ SandboxError::Docker { .. }) => {
            if still_running(backend, c).await? {
                Err(e)
            } else {
                Ok(None)
            }
        }
        Err(e) => Err(e),
    }
}

/// Whether `c` is still running once a refused engine call has had time to show. A killed
/// container refuses an exec ("cannot exec in a stopped state") a moment before the engine's
/// own state stops saying running, so one look can blame the engine for what the code under
/// test did; a container that is truly running still is after the grace.
async fn still_running(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
) -> Result<bool, SandboxError> {
    const LOOKS: u32 = 10;
    for look in 0..LOOKS {
        if !backend.is_running(c).await? {
            return Ok(false);
        }
        if look + 1 < LOOKS {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    Ok(true)
}

/// Makes /workspace readable by its owner alone, so that no verifier process can load code
/// from it: the tests reach it only through the broker. The agent owns the folder, so its
/// user does this. `false` when it could not (the log says why; the boundary still holds,
/// this only turns a test-writing mistake into a clear failure).
async fn close_workspace(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    log: &mut String,
    cancel: &CancellationToken,
) -> Result<Option<bool>, SandboxError> {
    let argv = ["chmod", "0700", "/workspace"].map(String::from);
    let req = exec_for(StepUser::Sandbox, &argv, Duration::from_secs(20), 4096);
    let Some(out) = exec_unless_gone(backend, c, &req, cancel).await? else {
        return Ok(None);
    };
    if out.exit_code != Some(0) {
        let _ = writeln!(
            log,
            "[nab] could not make /workspace private to its owner: {}",
            out.output.to_text().trim()
        );
    }
    Ok(Some(out.exit_code == Some(0)))
}

/// Starts the broker as the sandbox user, from outside. The runner waits for its socket.
async fn start_broker(backend: &dyn SandboxBackend, c: &ContainerId) -> Result<(), SandboxError> {
    let argv = [
        "python3".to_owned(),
        "-I".to_owned(),
        format!("{}/broker.py", stage::LIB),
        "--socket".to_owned(),
        stage::BROKER_SOCKET.to_owned(),
    ];
    let env = ["HOME=/tmp", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"].map(String::from);
    backend
        .spawn_detached(c, &argv, &env, ExecUser::Sandbox)
        .await
}

/// What the verifier is given besides the task and its staged `/nab`.
pub(crate) struct Inputs<'a> {
    /// The workspace files `expect_file` steps compare, taken from the archive copied out
    /// when the agent stopped.
    pub picks: &'a Picks,
    /// The canaries planted in this trial's /nab/tests: every JUnit report must show them
    /// failing, and such a step is judged by its other tests.
    pub canary: &'a Canary,
    /// Test runners stop at their first real failure ([`crate::trial::TrialJob::stop_at_first_failure`]).
    pub stop_at_first_failure: bool,
}

/// The verifier once its `/nab` is in place ([`stage_in`]): the log so far, and whether
/// the steps may run (`false`: the container stopped first, `result.failure` says so).
pub(crate) struct Staged {
    result: VerifyResult,
    ready: bool,
}

/// Copies `/nab` (the archive [`stage::pack`] made) into the verifier `c` and, unless the
/// verifier is shared or `workspace_closed` (done from the host), makes /workspace private
/// to its owner; both at once (the copy writes /nab, the sandbox user's chmod /workspace).
/// The agent has stopped: this may run while its workspace is still being read.
pub(crate) async fn stage_in(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    task: &Task,
    nab_tree: Vec<u8>,
    workspace_closed: bool,
    cancel: &CancellationToken,
) -> Result<Staged, SandboxError> {
    let shared = task.spec.verifier == VerifierMode::Shared;
    let mut result = VerifyResult::default();
    let copy = async { unless_gone(backend, c, backend.copy_in(c, "/nab", nab_tree).await).await };
    let close = async {
        if shared || workspace_closed {
            return Ok(Some(true));
        }
        close_workspace(backend, c, &mut result.log, cancel).await
    };
    let (copied, closed) = tokio::join!(copy, close);
    let ready = copied?.is_some() && closed?.is_some();
    if !ready {
        // Copied in or not, the tests are not protected: the log says why no step ran.
        let _ = writeln!(
            result.log,
            "[nab] the verifier container stopped before the hidden tests were in place\n"
        );
        result.failure = Some(FailureReason::VerifierCrashed);
    } else if shared {
        let _ = writeln!(
            result.log,
            "[nab] this task's hidden tests run beside the code under test (`verifier: shared`): that code could reach this verdict\n"
        );
    }
    Ok(Staged { result, ready })
}

/// Makes /workspace private to its owner by a command in the verifier, for a staged
/// verifier that counted on the host doing it when the host could not.
pub(crate) async fn close_late(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    staged: &mut Staged,
    cancel: &CancellationToken,
) -> Result<(), SandboxError> {
    if !staged.ready {
        return Ok(());
    }
    if close_workspace(backend, c, &mut staged.result.log, cancel)
        .await?
        .is_none()
    {
        let _ = writeln!(
            staged.result.log,
            "[nab] the verifier container stopped before the hidden tests were in place\n"
        );
        staged.result.failure = Some(FailureReason::VerifierCrashed);
        staged.ready = false;
    }
    Ok(())
}

/// Runs every verify step in order in container `c`, once `/nab` is in place; stops at
/// the first failing step. Between steps (and before a report is read) every process of
/// the sandbox user is killed, so nothing one step starts can act during the next or
/// rewrite a report.
pub(crate) async fn run_steps(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    task: &Task,
    inputs: Inputs<'_>,
    staged: Staged,
    cancel: &CancellationToken,
) -> Result<VerifyResult, SandboxError> {
    let Inputs {
        picks,
        canary,
        stop_at_first_failure,
    } = inputs;
    let Staged { mut result, ready } = staged;
    let budget = Duration::from_secs_f64(task.spec.timeouts.verify_s);
    let started = std::time::Instant::now();
    let steps = Steps {
        backend,
        c,
        task,
        picks,
        canary,
        shared: task.spec.verifier == VerifierMode::Shared,
        stop_at_first_failure,
        cancel,
    };
    if !ready {
        return Ok(result);
    }
    for (i, step) in task.spec.verify.iter().enumerate() {
        let left = budget.saturating_sub(started.elapsed());
        if !steps.run(i, step, left, &mut result).await? {
            break;
        }
    }
    // Every report passed: it must also be the task's pinned test set, so a runner made to
    // skip tests cannot pass for the real one.
    if result.failure.is_none()
        && let Some(pinned) = &task.pinned_tests
        && let Some(why) = crate::task::pinned::mismatch(pinned, &result.test_ids)
    {
        let _ = writeln!(result.log, "[nab] {why}\n");
        result.failure = Some(FailureReason::TestSetMismatch);
    }
    Ok(result)
}

/// What every step of one verifier run shares.
struct Steps<'a> {
    backend: &'a dyn SandboxBackend,
    c: &'a ContainerId,
    task: &'a Task,
    picks: &'a Picks,
    canary: &'a Canary,
    /// `verifier: shared`: every step runs as the sandbox user, beside the code under test.
    shared: bool,
    stop_at_first_failure: bool,
    cancel: &'a CancellationToken,
}

impl Steps<'_> {
    /// Runs step `i` within `left` of the verify budget and counts what it shows. `false`
    /// when the steps stop here (it failed, or the verdict is in).
    async fn run(
        &self,
        i: usize,
        step: &VerifyStep,
        left: Duration,
        result: &mut VerifyResult,
    ) -> Result<bool, SandboxError> {
        let (backend, c) = (self.backend, self.c);
        let (argv, timeout_s, output_cap, user) = match step {
            VerifyStep::Command(cmd) => (&cmd.argv, cmd.timeout_s, STEP_OUTPUT_CAP, cmd.user),
            // One byte over the cap tells "too long" from "exactly the cap".
            VerifyStep::ExpectStdout(s) => {
                (&s.argv, s.timeout_s, EXPECTED_CAP as usize + 1, s.user)
            }
            VerifyStep::ExpectFile(f) => return self.expect_file(i, f, result),
        };
        let user = if self.shared { StepUser::Sandbox } else { user };
        let timeout = Duration::from_secs_f64(timeout_s).min(left);
        let mut req = exec_for(user, argv, timeout, output_cap);
        let runner = matches!(step, VerifyStep::Command(cmd) if cmd.junit.is_some());
        if runner && self.stop_at_first_failure {
            let canaries_first = user == StepUser::Verifier && !ignores_pythonpath(argv);
            req.env
                .extend(stop_after_first_real_failure(self.canary, canaries_first));
        }
        let broker = user == StepUser::Verifier;
        let Some(out) = run_command(backend, c, i, &req, broker, result, self.cancel).await? else {
            return Ok(false);
        };
        let mut ok = out.exit_code == Some(0);
        match step {
            VerifyStep::Command(cmd) => {
                if let Some(junit) = &cmd.junit {
                    match read_junit(backend, c, junit, self.cancel).await? {
                        Ok(report) => {
                            let stop = self.stop_at_first_failure;
                            ok = count_junit(result, i, junit, report, self.canary, stop);
                        }
                        Err(Gone) => {
                            let _ = writeln!(
                                result.log,
                                "[nab] step {i}: the verifier container stopped before {junit} was read\n"
                            );
                            result.failure = Some(FailureReason::VerifierCrashed);
                            return Ok(false);
                        }
                    }
                } else if !ok && user == StepUser::Sandbox && !self.shared {
                    result.failure.get_or_insert(FailureReason::BuildFailed);
                }
            }
            VerifyStep::ExpectStdout(s) if ok => return self.expect_stdout(i, s, &out, result),
            // A command that failed is a failing test, whatever it printed.
            VerifyStep::ExpectStdout(_) => count_test(result, false),
            VerifyStep::ExpectFile(_) => {}
        }
        if !ok {
            result.failure.get_or_insert(FailureReason::TestsFailed);
            return Ok(false);
        }
        Ok(true)
    }

    /// An `expect_file` step: the picked workspace file compared on the host.
    fn expect_file(
        &self,
        i: usize,
        f: &ExpectFile,
        result: &mut VerifyResult,
    ) -> Result<bool, SandboxError> {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: expect_file {} equals {} (compare: {:?}, on the host)",
            f.path, f.equals, f.compare
        );
        let expected = expect::read_expected(self.task, &f.equals)?;
        let checked = expect::check_file(f, self.picks, &expected);
        Ok(count_check(result, i, checked))
    }

    /// The stdout of an `expect_stdout` step's command that exited 0, compared on the host.
    fn expect_stdout(
        &self,
        i: usize,
        s: &ExpectStdout,
        out: &ExecOutcome,
        result: &mut VerifyResult,
    ) -> Result<bool, SandboxError> {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: expect_stdout equals {} (compare: {:?}, on the host)",
            s.equals, s.compare
        );
        let expected = expect::read_expected(self.task, &s.equals)?;
        let checked = if out.stdout.truncated() {
            Err((
                FailureReason::OutputMismatch,
                format!(
                    "stdout is longer than the {EXPECTED_CAP}-byte cap (the expected data is at most that)"
                ),
            ))
        } else {
            expect::compare(out.stdout.bytes(), &expected, s.compare)
                .map_err(|d| (FailureReason::OutputMismatch, format!("stdout {d}")))
        };
        Ok(count_check(result, i, checked))
    }
}

/// Runs one step's command and logs it, then kills every process of the sandbox user.
/// With `broker`, the broker is started beside the command (whose side waits for the
/// broker's socket); the processes are killed once both are done. `Ok(None)` when the
/// trial's verdict is already in (the container stopped, the step timed out, or the
/// sandbox user's processes could not be stopped): `result.failure` says which.
async fn run_command(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    i: usize,
    req: &ExecRequest,
    broker: bool,
    result: &mut VerifyResult,
    cancel: &CancellationToken,
) -> Result<Option<ExecOutcome>, SandboxError> {
    let who = match req.user {
        ExecUser::Verifier => "verifier",
        ExecUser::Sandbox => "sandbox",
    };
    let _ = writeln!(
        result.log,
        "$ {}   [as the {who} user]",
        shell_quote(&req.argv)
    );
    let started = async {
        if !broker {
            return Ok(Some(()));
        }
        unless_gone(backend, c, start_broker(backend, c).await).await
    };
    let (started, out) = tokio::join!(started, exec_unless_gone(backend, c, req, cancel));
    if started?.is_none() {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: could not start the broker: the verifier container has stopped\n"
        );
        result.failure = Some(FailureReason::VerifierCrashed);
        return Ok(None);
    }
    let Some(out) = out? else {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: could not run: the verifier container has stopped\n"
        );
        result.failure = Some(FailureReason::VerifierCrashed);
        return Ok(None);
    };
    result.log.push_str(&log_text(&out.output));
    // No exit code without a timeout: the process went down with its container.
    if !out.timed_out && out.exit_code.is_none() {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: the verifier container stopped while the step ran\n"
        );
        result.failure = Some(FailureReason::VerifierCrashed);
        return Ok(None);
    }
    let verdict = match (out.timed_out, out.exit_code) {
        (true, _) => format!(
            "step {i}: TIMEOUT after {:.1} s (limit {:.1} s)",
            out.duration.as_secs_f64(),
            req.timeout.as_secs_f64()
        ),
        (false, Some(0)) => format!("step {i}: exit 0 in {:.1} s", out.duration.as_secs_f64()),
        (false, code) => format!(
            "step {i}: exit {code:?} in {:.1} s",
            out.duration.as_secs_f64()
        ),
    };
    let _ = writeln!(result.log, "[nab] {verdict}\n");
    if out.timed_out {
        // The deadline killed the whole container: no later step can run.
        result.failure = Some(FailureReason::VerifyTimeout);
        return Ok(None);
    }
    let reaped = backend.kill_sandbox_user(c, cancel).await;
    if unless_gone(backend, c, reaped).await? != Some(true) {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: processes of the sandbox user outlived the step and could not be stopped\n"
        );
        result.failure = Some(FailureReason::VerifierCrashed);
        return Ok(None);
    }
    Ok(Some(out))
}

/// A step's output for verify.log, at most [`STEP_OUTPUT_CAP`] bytes of it (a step whose
/// stdout is compared keeps more, for the comparison only).
fn log_text(output: &crate::env::sandbox::Capture) -> String {
    let bytes = output.bytes();
    if bytes.len() <= STEP_OUTPUT_CAP {
        return output.to_text();
    }
    let mut s = String::from_utf8_lossy(&bytes[..STEP_OUTPUT_CAP]).into_owned();
    s.push_str(&format!(
        "\n[nab: output truncated in this log: {} more bytes not shown]\n",
        bytes.len() - STEP_OUTPUT_CAP + output.dropped as usize
    ));
    s
}

/// The environment that makes pytest stop at the first failing test that is not a canary:
/// the planted pytest canaries always fail, so `--maxfail` is one above their number, and a
/// runner that stops has seen at least one real failure. With `canaries_first` (a runner
/// of the verifier user's, whose PYTHONPATH is nab's library) the plugin
/// `nab_canaries_first` runs the canaries before the task's tests, so the stop comes at the
/// first real failure wherever the canaries' files sort; without it, pytest stops only
/// once every canary has run. PYTEST_ADDOPTS comes before the step's own arguments, so a
/// task that sets `--maxfail` itself keeps its setting; other runners ignore it and run
/// every test.
fn stop_after_first_real_failure(canary: &Canary, canaries_first: bool) -> Vec<String> {
    let names = canary.pytest_names();
    let maxfail = format!("--maxfail={}", names.len() + 1);
    if !canaries_first {
        return vec![format!("PYTEST_ADDOPTS={maxfail}")];
    }
    vec![
        format!("PYTEST_ADDOPTS={maxfail} -p nab_canaries_first"),
        format!("NAB_CANARIES={}", names.join(",")),
    ]
}

/// Whether the runner's interpreter is told to ignore `PYTHONPATH` (`python3 -I` or `-E`,
/// alone or among other one-letter options before the script or `-m`): it could not load
/// the plugin from nab's library, and pytest would stop on that import error instead of a
/// test, so such a runner gets `--maxfail` alone.
fn ignores_pythonpath(argv: &[String]) -> bool {
    let python = argv.first().is_some_and(|a| {
        std::path::Path::new(a)
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("python"))
    });
    python
        && argv
            .iter()
            .skip(1)
            .take_while(|a| a.starts_with('-') && a.as_str() != "-m" && a.as_str() != "-c")
            .any(|a| !a.starts_with("--") && (a.contains('I') || a.contains('E')))
}

/// Adds one test to the counts.
fn count_test(result: &mut VerifyResult, passed: bool) {
    result.tests_total = Some(result.tests_total.unwrap_or(0) + 1);
    result.tests_passed = Some(result.tests_passed.unwrap_or(0) + u32::from(passed));
}

/// Logs and counts a host-side check (one test); `false` when it failed the trial.
fn count_check(result: &mut VerifyResult, i: usize, checked: expect::Checked) -> bool {
    count_test(result, checked.is_ok());
    match checked {
        Ok(()) => {
            let _ = writeln!(result.log, "[nab] step {i}: matched\n");
            true
        }
        Err((reason, why)) => {
            let _ = writeln!(result.log, "[nab] step {i}: {}: {why}\n", reason.as_str());
            result.failure = Some(reason);
            false
        }
    }
}

/// Judges a step's JUnit report with the canaries set apart and adds its counts; `false`
/// when the step failed (`result.failure` is set to `tampered` when a canary passed).
/// `stopped_early`: the runner was told to stop at its first real failure.
fn count_junit(
    result: &mut VerifyResult,
    i: usize,
    path: &str,
    report: Option<Vec<junit::Case>>,
    canary: &Canary,
    stopped_early: bool,
) -> bool {
    let Some(cases) = report else {
        let _ = writeln!(
            result.log,
            "[nab] step {i}: no readable JUnit file at {path}; a step that declares `junit` must write it\n"
        );
        return false;
    };
    match junit::judge(&cases, canary, stopped_early) {
        Verdict::Tampered(why) => {
            let _ = writeln!(result.log, "[nab] step {i}: TAMPERED: {why}\n");
            result.failure = Some(FailureReason::Tampered);
            false
        }
        Verdict::Incomplete(why) => {
            let _ = writeln!(result.log, "[nab] step {i}: {why}\n");
            false
        }
        Verdict::Judged { passed, total, ids } => {
            result.tests_passed = Some(result.tests_passed.unwrap_or(0) + passed);
            result.tests_total = Some(result.tests_total.unwrap_or(0) + total);
            result.test_ids.extend(ids);
            let _ = writeln!(
                result.log,
                "[nab] step {i}: {passed}/{total} tests passed (the planted canaries failed, as they must)\n"
            );
            if stopped_early && passed < total {
                let _ = writeln!(
                    result.log,
                    "[nab] step {i}: the runner stopped at its first failing test: this check must fail, and one failure settles it (`nab validate --all-tests` runs every test)\n"
                );
            }
            total > 0 && passed == total
        }
    }
}

/// The verifier container was no longer running.
struct Gone;

async fn read_junit(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    path: &str,
    cancel: &CancellationToken,
) -> Result<Result<Option<Vec<junit::Case>>, Gone>, SandboxError> {
    // Read as the verifier user: the report's folder is closed to everyone else.
    let argv = ["cat".to_owned(), "--".to_owned(), path.to_owned()];
    let req = exec_for(
        StepUser::Verifier,
        &argv,
        Duration::from_secs(20),
        JUNIT_CAP,
    );
    let Some(out) = exec_unless_gone(backend, c, &req, cancel).await? else {
        return Ok(Err(Gone));
    };
    if out.exit_code != Some(0) || out.output.truncated() {
        return Ok(Ok(None));
    }
    Ok(Ok(junit::parse(out.output.bytes())))
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
    fn a_runner_told_to_ignore_pythonpath_gets_no_plugin_it_could_not_load() {
        let argv = |a: &str| a.split(' ').map(String::from).collect::<Vec<_>>();
        for isolated in [
            "python3 -I -m pytest -q /nab/tests",
            "python3 -E -m pytest",
            "python3 -bIB -m pytest",
            "/usr/bin/python3.11 -I -m pytest",
        ] {
            assert!(ignores_pythonpath(&argv(isolated)), "{isolated}");
        }
        for plain in [
            "python3 -m pytest -q -I /nab/tests",
            "python3 -B -m pytest -E",
            "pytest -q /nab/tests",
            "pytest -rE /nab/tests",
            "python3 /nab/tests/run.py -I",
        ] {
            assert!(!ignores_pythonpath(&argv(plain)), "{plain}");
        }
    }

    #[test]
    fn argv_is_quoted_as_a_person_would_type_it() {
        assert_eq!(shell_quote(&["a b".into(), "c".into()]), "'a b' c");
    }
}
