//! `nab gate --baseline DIR --candidate DIR [--config gate.yaml]`: the CI gate. Exit 0 when
//! every rule passes, 1 when one fails (each named in one line), 2 for bad input, 4 when no
//! rule failed but none that compares pass rates could run.

use nab_harness::exit::{FAILED, INCONCLUSIVE, SUCCESS, exit};
use nab_reports::gate::GateVerdict;
use std::process::ExitCode;

pub type Args = nab_reports::GateArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    use nab_reports::cli::gate::{evaluate, write};
    let run = evaluate(&args)?;
    print!("{}", run.markdown);
    write(&args, &run)?;
    for r in run.outcome.failing() {
        eprintln!("gate: {} failed: {}", r.id, r.detail);
    }
    Ok(exit(match run.outcome.verdict() {
        GateVerdict::Passed => SUCCESS,
        GateVerdict::Failed => FAILED,
        GateVerdict::Inconclusive => {
            eprintln!(
                "gate: inconclusive: no rule failed, but no rule that compares pass rates could run (too few tasks or trials)"
            );
            INCONCLUSIVE
        }
    }))
}
