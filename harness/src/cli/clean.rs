//! `nab clean`: removes leftovers by label: containers, volumes, and disk-quota images
//! (unmounted and deleted from `$NAB_STATE_DIR/quota`, whatever the agent left in them).

use nab_harness::env::sandbox::{DockerBackend, SandboxBackend};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only what one run left (its run id); default: everything labelled by nab.
    #[arg(long)]
    run: Option<String>,
    #[command(flatten)]
    engines: super::common::EngineOpts,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let label = match &args.run {
        Some(r) => format!("nab.run={r}"),
        None => "nab.run".to_owned(),
    };
    // Every engine is connected first: a typo in one --engine cleans nothing.
    let connected = args.engines.connect(1).await?;
    for (name, docker, _, remote) in connected.engines {
        // A remote engine's quotas are on its machine; nab-relay is not needed to remove them.
        let backend = if remote {
            DockerBackend::remote(docker, nab_harness::env::sandbox::Remote::new(None))
        } else {
            DockerBackend::new(docker)
        };
        let swept = backend.sweep(&label).await?;
        println!(
            "{name}: removed {} container(s), {} volume(s) and {} disk quota(s) labelled {label}",
            swept.containers, swept.volumes, swept.quotas
        );
    }
    Ok(ExitCode::SUCCESS)
}
