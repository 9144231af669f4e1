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
        /// Built on the first engine and copied to each other one that lacks them.
        #[command(flatten)]
        engines: super::common::EngineOpts,
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
    /// List the images nab built (base, task and declared agents' images), with their sizes;
    /// with several --engine, each engine's, named in the first column.
    Ls {
        #[command(flatten)]
        engines: super::common::EngineOpts,
    },
    /// Remove images nab built, by tag (images without nab's label are refused); with
    /// --engine, from each engine given (a tag need only be on one of them).
    Rm {
        #[arg(required = true)]
        tags: Vec<String>,
        #[command(flatten)]
        engines: super::common::EngineOpts,
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
            engines,
        } => {
            // A wrong agent name fails before any image is built.
            let agent = agent.map(|a| declared(&a, &agents)).transpose()?;
            let connected = engines.connect(1).await?;
            build(&connected, force, tasks, agent, &ids).await
        }
        Action::Ls { engines } => ls(&engines.connect(1).await?).await,
        Action::Rm { tags, engines } => rm(&engines.connect(1).await?, &tags).await,
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

/// `nab image build`: the base image, the tasks' images, the agent's images on them, built
/// on the first engine and copied to the others (as `nab run` does before its trials).
async fn build(
    connected: &nab_harness::run::Connected,
    force: bool,
    tasks: Option<PathBuf>,
    agent: Option<nab_harness::agents::DeclaredAgent>,
    ids: &[String],
) -> anyhow::Result<ExitCode> {
    let docker = connected.first();
    let progress = nab_harness::run::progress::for_stderr();
    let spread = |tags: Vec<String>| {
        let progress = progress.clone();
        async move { connected.spread_images(&tags, progress.as_ref()).await }
    };
    let tag = super::ensure_image(docker, force).await?;
    spread(vec![tag.clone()]).await?;
    println!("{tag}");
    let Some(dir) = tasks else {
        return Ok(ExitCode::SUCCESS);
    };
    let Some(mut tasks) = super::common::load_or_report(&dir, ids) else {
        return Ok(nab_harness::exit::exit(nab_harness::exit::BAD_INPUT));
    };
    for (img, e) in super::ensure_task_images(docker, &tag, &mut tasks, force).await? {
        spread(vec![e.tag.clone()]).await?;
        println!("{}  {}", e.tag, img.tasks.join(","));
    }
    if let Some(agent) = &agent {
        let built = super::agent_images::ensure(docker, &tag, agent, &tasks, force);
        for (img, e) in built.await? {
            spread(vec![e.tag.clone()]).await?;
            println!("{}  {}", e.tag, img.tasks.join(","));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `nab image ls`: one table; with several engines, each row names its engine.
async fn ls(connected: &nab_harness::run::Connected) -> anyhow::Result<ExitCode> {
    let mut rows = Vec::new();
    for (name, engine, _, _) in &connected.engines {
        let images = nab_harness::env::image::list_images(engine)
            .await
            .map_err(|e| anyhow::anyhow!("engine {name}: {e}"))?;
        rows.extend(images.into_iter().map(|i| (name.as_str(), i)));
    }
    let several = connected.engines.len() > 1;
    let w = rows
        .iter()
        .map(|(_, i)| i.tag.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let ew = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(6).max(6);
    let engine = |name: &str| match several {
        true => format!("{name:<ew$}  "),
        false => String::new(),
    };
    println!(
        "{}{:<w$}  {:<5}  {:>9}  built on",
        engine("engine"),
        "tag",
        "kind",
        "size"
    );
    for (name, i) in &rows {
        println!(
            "{}{:<w$}  {:<5}  {:>6.1} MB  {}",
            engine(name),
            i.tag,
            i.kind,
            i.size_bytes as f64 / 1e6,
            i.base.as_deref().unwrap_or("-")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `nab image rm`: removes each tag nab built from every engine that has it. A tag on no
/// engine, or one an engine refuses (not nab's, or in use), makes the exit code FAILED.
async fn rm(connected: &nab_harness::run::Connected, tags: &[String]) -> anyhow::Result<ExitCode> {
    use nab_harness::env::image::ImageListError;
    let several = connected.engines.len() > 1;
    let mut failed = 0;
    for t in tags {
        let mut missing = Vec::new();
        for (name, engine, _, _) in &connected.engines {
            let on = match several {
                true => format!(" from engine {name}"),
                false => String::new(),
            };
            match nab_harness::env::image::remove_image(engine, t).await {
                Ok(()) => println!("removed {t}{on}"),
                Err(e @ ImageListError::Missing(_)) => missing.push(e),
                Err(e) => {
                    eprintln!("{e}{on}");
                    failed += 1;
                }
            }
        }
        if missing.len() == connected.engines.len() {
            match several {
                true => eprintln!(
                    "no image `{t}` on any engine given; `nab image ls` with the same --engine lists nab's images there"
                ),
                false => eprintln!("{}", missing[0]),
            }
            failed += 1;
        }
    }
    if failed > 0 {
        return Ok(nab_harness::exit::exit(nab_harness::exit::FAILED));
    }
    Ok(ExitCode::SUCCESS)
}
