//! `nab image build|tag|ls|rm`.

use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Build the base image (skipped when the tag for this recipe exists, unless --force);
    /// with --tasks, also every task image those tasks' `environment:` sections need.
    Build {
        #[arg(long)]
        force: bool,
        /// A suite folder: build its task images too (one per distinct environment).
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// Task ids (default: every task in --tasks).
        ids: Vec<String>,
    },
    /// Print the tag the current recipe builds; with --tasks, each task image's tag and
    /// the tasks that share it.
    Tag {
        #[arg(long)]
        tasks: Option<PathBuf>,
    },
    /// List the images nab built (base and task images), with their sizes.
    Ls,
    /// Remove images nab built, by tag (images without nab's label are refused).
    Rm {
        #[arg(required = true)]
        tags: Vec<String>,
    },
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Tag { tasks } => {
            let base = nab_harness::env::image::Recipe::default().tag();
            println!("{base}");
            if let Some(dir) = tasks {
                let Some(tasks) = super::common::load_or_report(&dir, &[]) else {
                    return Ok(nab_harness::exit::exit(nab_harness::exit::BAD_INPUT));
                };
                for img in nab_harness::env::image::suite_images(&base, &tasks) {
                    println!("{}  {}", img.recipe.tag(), img.tasks.join(","));
                }
            }
        }
        Action::Build { force, tasks, ids } => {
            let docker = nab_harness::env::sandbox::connect().await?;
            let tag = super::ensure_image(&docker, force).await?;
            println!("{tag}");
            if let Some(dir) = tasks {
                let Some(mut tasks) = super::common::load_or_report(&dir, &ids) else {
                    return Ok(nab_harness::exit::exit(nab_harness::exit::BAD_INPUT));
                };
                for (img, e) in super::ensure_task_images(&docker, &tag, &mut tasks, force).await? {
                    println!("{}  {}", e.tag, img.tasks.join(","));
                }
            }
        }
        Action::Ls => {
            let docker = nab_harness::env::sandbox::connect().await?;
            let images = nab_harness::env::image::list_images(&docker).await?;
            let w = images.iter().map(|i| i.tag.len()).max().unwrap_or(3).max(3);
            println!("{:<w$}  {:<4}  {:>9}  built on", "tag", "kind", "size");
            for i in &images {
                println!(
                    "{:<w$}  {:<4}  {:>6.1} MB  {}",
                    i.tag,
                    i.kind,
                    i.size_bytes as f64 / 1e6,
                    i.base.as_deref().unwrap_or("-")
                );
            }
        }
        Action::Rm { tags } => {
            let docker = nab_harness::env::sandbox::connect().await?;
            let mut failed = 0;
            for t in &tags {
                match nab_harness::env::image::remove_image(&docker, t).await {
                    Ok(()) => println!("removed {t}"),
                    Err(e) => {
                        eprintln!("{e}");
                        failed += 1;
                    }
                }
            }
            if failed > 0 {
                return Ok(nab_harness::exit::exit(nab_harness::exit::FAILED));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
