//! `nab image build|tag`.

use clap::Subcommand;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Build the base image (skipped when the tag for this recipe exists, unless --force).
    Build {
        #[arg(long)]
        force: bool,
    },
    /// Print the tag the current recipe builds.
    Tag,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Tag => println!("{}", nab_harness::image::Recipe::default().tag()),
        Action::Build { force } => {
            let docker = nab_harness::docker::connect().await?;
            let tag = super::ensure_image(&docker, force).await?;
            println!("{tag}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
