//! `nab`'s exit codes, in one place: the binary picks one of these and nothing else, and
//! `nab --help` lists them ([`HELP`]).

use std::process::ExitCode;

/// Everything checked passed.
pub const SUCCESS: u8 = 0;
/// The command ran and found a failure: a trial ended in an infrastructure error (`run`),
/// a task is invalid (`validate`), a gate rule failed (`gate`), an attack fooled the
/// harness (`selftest`).
pub const FAILED: u8 = 1;
/// Bad input: bad arguments, tasks that do not load, a run folder that does not read, a
/// provider that refused the run's key or model (the run stopped). Nothing was judged, so
/// CI can tell it from a failure.
pub const BAD_INPUT: u8 = 2;
/// `--max-cost-usd` was reached (`run`, `sweep`): trials that had not started were skipped
/// and not recorded; `--resume` runs them. A run that also had a trial error exits
/// [`FAILED`] instead.
pub const COST_LIMIT: u8 = 3;
/// `gate`: no rule failed, but no rule that compares pass rates could run (too few tasks or
/// trials): neither a pass nor a failure.
pub const INCONCLUSIVE: u8 = 4;
/// Interrupted by Ctrl-C or SIGTERM (128 + SIGINT, for both); what finished is kept.
pub const INTERRUPTED: u8 = 130;

/// The exit codes, as `nab --help` shows them.
pub const HELP: &str = "\
Exit codes:
  0    success: everything checked passed
  1    a failure was found: a trial error or every engine lost (run), an invalid task (validate), a failed rule
       (gate), an attack that fooled the harness (selftest), a trial that re-graded differently or an
       edited bundle (regrade), every verdict asked for failed (judge)
  2    bad input: arguments, tasks or run folders that do not read, or a provider that refused the
       run's key or model (run, sweep: stopped, no trial scored); nothing was judged
  3    the cost limit (--max-cost-usd) was reached: trials not yet started were skipped
       and not recorded (--resume runs them); 1 takes precedence when a trial errored
  4    inconclusive (gate): no rule failed, but no rule comparing pass rates could run (too few
       tasks or trials)
  130  interrupted (Ctrl-C or SIGTERM); finished trials are kept";

/// `code` as the process's exit status.
pub fn exit(code: u8) -> ExitCode {
    ExitCode::from(code)
}
