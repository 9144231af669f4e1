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
    /// with --tasks, also every task image those tasks' `environment:` sections need; with
    /// --agent <name> too, the declared agent's image on top of each of those tasks' images
    /// (e.g. `nab image build --tasks tasks --agent mini-swe-agent py-pagination-offbyone`).
    Build {
        #[arg(long)]
        force: bool,
        /// A suite folder: build its task images too (one per distinct environment).
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// A declared agent (<agents dir>/<name>/agent.yaml): build its images for the
        /// tasks, one per distinct task image (the base image for tasks without an
        /// `environment:`).
        #[arg(long, value_name = "NAME", requires = "tasks")]
        agent: Option<String>,
        /// The folder of declared agents.
        #[arg(long, value_name = "DIR", default_value = nab_harness::agents::DEFAULT_DIR)]
        agents: PathBuf,
        /// Task ids (default: every task in --tasks).
        ids: Vec<String>,
    },
    /// Print the tag the current recipe builds; with --tasks, each task image's tag and
    /// the tasks that share it; with --agent too, the declared agent's image tags.
    Tag {
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// A declared agent (<agents dir>/<name>/agent.yaml).
        #[arg(long, value_name = "NAME", requires = "tasks")]
        agent: Option<String>,
        /// The folder of declared agents.
        #[arg(long, value_name = "DIR", default_value = nab_harness::agents::DEFAULT_DIR)]
        agents: PathBuf,
    },
    /// List the images nab built (base, task and declared agents' images), with their sizes.
    Ls,
    /// Remove images nab built, by tag (images without nab's label are refused).
    Rm {
        #[arg(required = true)]
        tags: Vec<String>,
    },
}

/// `--agent` of `nab image`: only a declared agent has images of its own.
fn declared(
    name: &str,
    agents: &std::path::Path,
) -> anyhow::Result<nab_harness::agents::DeclaredAgent> {
    match nab_harness::trial::AgentKind::resolve(name, agents)? {
        nab_harness::trial::AgentKind::Declared(a) => Ok((*a).clone()),
        other => anyhow::bail!(
            "--agent {other}: only a declared agent (<agents dir>/<name>/agent.yaml) has an image of its own; the others run in the task's image"
        ),
    }
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Tag {
            tasks,
            agent,
            agents,
        } => {
            let agent = agent.map(|a| declared(&a, &agents)).transpose()?;
            tag(tasks, agent)
        }
        Action::Build {
            force,
            tasks,
            agent,
            agents,
            ids,
        } => {
            // A wrong agent name fails before any image is built.
            let agent = agent.map(|a| declared(&a, &agents)).transpose()?;
            build(force, tasks, agent, &ids).await
        }
        Action::Ls => ls().await,
        Action::Rm { tags } => rm(&tags).await,
    }
}

/// `nab image tag`: the base image's tag, each task image's, and the agent's images'.
fn tag(
    tasks: Option<PathBuf>,
    agent: Option<nab_harness::agents::DeclaredAgent>,
) -> anyhow::Result<ExitCode> {
    let base = nab_harness::env::image::Recipe::default().tag();
    println!("{base}");
    let Some(dir) = tasks else {
        return Ok(ExitCode::SUCCESS);
    };
    let Some(mut tasks) = super::common::load_or_report(&dir, &[]) else {
        return Ok(nab_harness::exit::exit(nab_harness::exit::BAD_INPUT));
    };
    for img in nab_harness::env::image::suite_images(&base, &tasks) {
        println!("{}  {}", img.recipe.tag(), img.tasks.join(","));
        for t in tasks
            .iter_mut()
            .filter(|t| img.tasks.iter().any(|i| i == t.id()))
        {
            std::sync::Arc::make_mut(t).image = Some(img.recipe.tag());
        }
    }
    for img in agent
        .iter()
        .flat_map(|a| nab_harness::env::image::agent_images(&base, a, &tasks))
    {
        println!("{}  {}", img.recipe.tag(), img.tasks.join(","));
    }
    Ok(ExitCode::SUCCESS)
}

/// `nab image build`: the base image, the tasks' images, the agent's images on them.
async fn build(
    force: bool,
    tasks: Option<PathBuf>,
    agent: Option<nab_harness::agents::DeclaredAgent>,
    ids: &[String],
) -> anyhow::Result<ExitCode> {
    let docker = nab_harness::env::sandbox::connect().await?;
    let tag = super::ensure_image(&docker, force).await?;
    println!("{tag}");
    let Some(dir) = tasks else {
        return Ok(ExitCode::SUCCESS);
    };
    let Some(mut tasks) = super::common::load_or_report(&dir, ids) else {
        return Ok(nab_harness::exit::exit(nab_harness::exit::BAD_INPUT));
    };
    for (img, e) in super::ensure_task_images(&docker, &tag, &mut tasks, force).await? {
        println!("{}  {}", e.tag, img.tasks.join(","));
    }
    if let Some(agent) = &agent {
        let built = super::agent_images::ensure(&docker, &tag, agent, &tasks, force);
        for (img, e) in built.await? {
            println!("{}  {}", e.tag, img.tasks.join(","));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `nab image ls`.
async fn ls() -> anyhow::Result<ExitCode> {
    let docker = nab_harness::env::sandbox::connect().await?;
    let images = nab_harness::env::image::list_images(&docker).await?;
    let w = images.iter().map(|i| i.tag.len()).max().unwrap_or(3).max(3);
    println!("{:<w$}  {:<5}  {:>9}  built on", "tag", "kind", "size");
    for i in &images {
        println!(
            "{:<w$}  {:<5}  {:>6.1} MB  {}",
            i.tag,
            i.kind,
            i.size_bytes as f64 / 1e6,
            i.base.as_deref().unwrap_or("-")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `nab image rm`: removes each tag nab built; any refusal makes the exit code FAILED.
async fn rm(tags: &[String]) -> anyhow::Result<ExitCode> {
    let docker = nab_harness::env::sandbox::connect().await?;
    let mut failed = 0;
    for t in tags {
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
    Ok(ExitCode::SUCCESS)
}
