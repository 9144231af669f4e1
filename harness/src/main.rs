//! `nab`: the Native AgentBench command line.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return nab_harness::exit::exit(nab_harness::exit::BAD_INPUT);
        }
    };
    let code = runtime.block_on(run());
    // Work on blocking threads (parsing what an agent left) has its own deadlines, but
    // an exit never waits for it: after an interruption nab must end promptly.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    code
}

async fn run() -> ExitCode {
    nab_protocol::logging::init();
    let cli = cli::Cli::parse();
    match cli.run().await {
        Ok(code) => code,
        // A second Ctrl-C: the runner said so on stderr and stopped without its cleanup.
        Err(e) if interrupted_twice(&e) => nab_harness::exit::exit(nab_harness::exit::INTERRUPTED),
        Err(e) => {
            eprintln!("error: {e:#}");
            nab_harness::exit::exit(nab_harness::exit::BAD_INPUT)
        }
    }
}

/// Whether `e` is a run stopped by a second Ctrl-C (`nab run`, `nab validate`, `nab selftest`).
fn interrupted_twice(e: &anyhow::Error) -> bool {
    use nab_harness::run::RunError;
    use nab_harness::selftest::SelftestError;
    e.chain().any(|c| {
        matches!(c.downcast_ref(), Some(RunError::Abandoned))
            || matches!(
                c.downcast_ref(),
                Some(SelftestError::Run(RunError::Abandoned))
            )
    })
}
