//! `nab clean`: removes leftovers by label: containers, volumes, and disk-quota images
//! (unmounted and deleted from `$NAB_STATE_DIR/quota`, whatever the agent left in them).

use nab_harness::sandbox::{DockerBackend, SandboxBackend};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only what one run left (its run id); default: everything labelled by nab.
    #[arg(long)]
    run: Option<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let docker = nab_harness::sandbox::connect().await?;
    let backend = DockerBackend::new(docker);
    let label = match &args.run {
        Some(r) => format!("nab.run={r}"),
        None => "nab.run".to_owned(),
    };
    let swept = backend.sweep(&label).await?;
    println!(
        "removed {} container(s), {} volume(s) and {} disk quota(s) labelled {label}",
        swept.containers, swept.volumes, swept.quotas
    );
    Ok(ExitCode::SUCCESS)
}
