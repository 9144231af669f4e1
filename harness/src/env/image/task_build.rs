//! Builds a task's image with Docker's builder from a rendered Dockerfile. The build is
//! the only container that has a network (the default bridge, for apt and pip); every
//! agent and verifier container still runs with none. A failed build names the task(s)
//! and the command that failed, and is an infrastructure error, never an agent failure.

use super::build::{BuildError, Ensured, image_exists};
use super::recipe::Recipe;
use super::sources::{SourcesError, host_sources_for};
use super::task_recipe::{PIP_CA_IN_CONTEXT, SOURCES_IN_CONTEXT, TaskRecipe};
use crate::env::sandbox::engine::{self, BuildEvent, Engine as Docker, EngineError};
use futures::{Stream, StreamExt};
use indicatif::ProgressBar;
use std::collections::VecDeque;
use std::time::Instant;

/// Output lines kept for the error message.
const TAIL_LINES: usize = 25;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TaskImageError {
    #[error(
        "building the image {tag} for task(s) {tasks} failed at `{command}`: {message}\nlast build output:\n{tail}\n(an infrastructure error: no trial of these tasks ran)"
    )]
    /// (A declared agent's image says whose it is in its tag.)
    Failed {
        tag: String,
        tasks: String,
        command: String,
        message: String,
        tail: String,
    },
    #[error("cannot build the image for {what} {tasks}: {source}")]
    Sources {
        what: String,
        tasks: String,
        source: SourcesError,
    },
    #[error(
        "cannot build the image for {what} {tasks}: pip needs a CA bundle and none was found (looked at $PIP_CERT, /etc/pip.conf's `cert`, {SYSTEM_CA}); set PIP_CERT to the bundle this machine's pip uses"
    )]
    NoPipCa { what: String, tasks: String },
    #[error(transparent)]
    Docker(#[from] BuildError),
    #[error("cannot pack the build context: {0}")]
    Context(#[from] std::io::Error),
}

/// Returns `recipe`'s tag, building the image first when it is missing (or `force`).
/// `tasks` names the tasks that use it, for messages. A declared agent's image (see
/// [`TaskRecipe::for_agent`]) is built the same way.
pub async fn ensure_task_image(
    docker: &Docker,
    recipe: &TaskRecipe,
    tasks: &[String],
    force: bool,
    progress: &ProgressBar,
) -> Result<Ensured, TaskImageError> {
    let tag = recipe.tag();
    if !force && image_exists(docker, &tag).await? {
        return Ok(Ensured {
            tag,
            built_in: None,
        });
    }
    let names = tasks.join(", ");
    let what = match &recipe.agent {
        None => "task(s)".to_owned(),
        Some(agent) => format!("agent {agent} on task(s)"),
    };
    let started = Instant::now();
    let context = build_context(recipe, &what, &names)?;
    let instructions = recipe.instructions();
    let events = engine::build_image(docker, &tag, context);
    let Watched {
        step,
        tail,
        mut failure,
    } = watch(events, progress, &tag, &names).await;
    let failed_at = || {
        step.checked_sub(1)
            .and_then(|i| instructions.get(i))
            .map(|i| i.command.clone().unwrap_or_else(|| i.line.clone()))
            .unwrap_or_else(|| "(before the first step)".to_owned())
    };
    if failure.is_none() && !image_exists(docker, &tag).await? {
        failure = Some("the image is absent after the build".to_owned());
    }
    if let Some(message) = failure {
        return Err(TaskImageError::Failed {
            tag,
            tasks: names,
            command: failed_at(),
            message,
            tail: tail.into_iter().collect::<Vec<_>>().join("\n"),
        });
    }
    Ok(Ensured {
        tag,
        built_in: Some(started.elapsed()),
    })
}

/// The build context: the recipe's Dockerfile, with the host's apt sources when it
/// installs Debian packages and the host's CA bundle when it installs PyPI ones.
fn build_context(recipe: &TaskRecipe, what: &str, names: &str) -> Result<Vec<u8>, TaskImageError> {
    let sources = if recipe.apt.is_empty() {
        String::new()
    } else {
        host_sources_for(Recipe::default().suite)
            .map_err(|source| TaskImageError::Sources {
                what: what.to_owned(),
                tasks: names.to_owned(),
                source,
            })?
            .iter()
            .map(|s| s.to_mirror_line() + "\n")
            .collect()
    };
    let pip_ca = if recipe.pip.is_empty() {
        String::new()
    } else {
        host_pip_ca().ok_or_else(|| TaskImageError::NoPipCa {
            what: what.to_owned(),
            tasks: names.to_owned(),
        })?
    };
    Ok(pack_context(&recipe.dockerfile(), &sources, &pip_ca)?)
}

/// What a build said: the last step it announced, its last lines, and why it failed.
struct Watched {
    step: usize,
    tail: VecDeque<String>,
    failure: Option<String>,
}

/// Follows a build's output to its end on `progress`, keeping the last [`TAIL_LINES`]
/// lines for the error message.
async fn watch(
    events: impl Stream<Item = Result<BuildEvent, EngineError>>,
    progress: &ProgressBar,
    tag: &str,
    names: &str,
) -> Watched {
    let mut step = 0usize;
    let mut tail: VecDeque<String> = VecDeque::new();
    let mut failure: Option<String> = None;
    let mut events = std::pin::pin!(events);
    while let Some(ev) = events.next().await {
        let text = match ev {
            Ok(BuildEvent::Output(text)) => text,
            Ok(BuildEvent::Failed(message)) => {
                failure = Some(message);
                break;
            }
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            // The classic builder announces each instruction as `Step N/M : ...`.
            if let Some(n) = line
                .strip_prefix("Step ")
                .and_then(|r| r.split('/').next())
                .and_then(|n| n.trim().parse::<usize>().ok())
            {
                step = n;
                progress.set_message(format!("{tag} ({names}): step {n}"));
            } else {
                progress.set_message(format!(
                    "{tag}: {}",
                    line.chars().take(90).collect::<String>()
                ));
            }
            tracing::debug!(target: "nab::image", "{line}");
            if tail.len() == TAIL_LINES {
                tail.pop_front();
            }
            tail.push_back(line.to_owned());
        }
    }
    Watched {
        step,
        tail,
        failure,
    }
}

const SYSTEM_CA: &str = "/etc/ssl/certs/ca-certificates.crt";

/// The CA bundle this machine's pip uses: `PIP_CERT`, else `cert` in /etc/pip.conf, else
/// the system bundle. A proxy with its own root certificate is trusted in the build only
/// because the host trusts it.
fn host_pip_ca() -> Option<String> {
    let from_conf = || {
        let text = std::fs::read_to_string("/etc/pip.conf").ok()?;
        text.lines().find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == "cert").then(|| v.trim().to_owned())
        })
    };
    let candidates = [
        std::env::var("PIP_CERT").ok(),
        from_conf(),
        Some(SYSTEM_CA.to_owned()),
    ];
    candidates.into_iter().flatten().find_map(|p| {
        std::fs::read_to_string(p)
            .ok()
            .filter(|t| !t.trim().is_empty())
    })
}

/// The build context: the Dockerfile, the host's apt sources (when apt runs) and the CA
/// bundle pip trusts (when pip runs).
fn pack_context(dockerfile: &str, sources: &str, pip_ca: &str) -> std::io::Result<Vec<u8>> {
    let mut tar = tar::Builder::new(Vec::new());
    let mut add = |name: &str, body: &str| {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(0);
        h.set_cksum();
        tar.append_data(&mut h, name, body.as_bytes())
    };
    add("Dockerfile", dockerfile)?;
    add(SOURCES_IN_CONTEXT, sources)?;
    add(PIP_CA_IN_CONTEXT, pip_ca)?;
    tar.into_inner()
}
