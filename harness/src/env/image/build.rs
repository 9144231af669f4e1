//! Builds the base image: mmdebstrap → tarball → Docker import (see
//! [`crate::env::sandbox::engine::import_rootfs`]).

use super::recipe::{IMAGE_REPO, Recipe};
use super::sources::{SourcesError, host_sources_for};
use crate::env::sandbox::engine::{self, Engine, EngineError, ImportError};
use futures::StreamExt;
use indicatif::ProgressBar;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    #[error(transparent)]
    Sources(#[from] SourcesError),
    #[error(
        "cannot start mmdebstrap ({0}); install it with `apt-get install -y mmdebstrap` (ci/setup.sh does)"
    )]
    NoMmdebstrap(std::io::Error),
    #[error("mmdebstrap failed with {status}; last output:\n{tail}")]
    Mmdebstrap { status: String, tail: String },
    #[error("cannot write the image recipe to a temporary directory: {0}")]
    Io(#[from] std::io::Error),
    #[error("Docker refused the image import of {tag}: {source}")]
    Import { tag: String, source: EngineError },
    #[error("the engine could not finish the image {tag}: {message}")]
    Configure { tag: String, message: String },
    #[error("Docker error while checking for image {tag}: {source}")]
    Inspect { tag: String, source: EngineError },
}

/// What happened in `ensure_base_image`.
#[derive(Debug, Clone)]
pub struct Ensured {
    pub tag: String,
    /// `Some(build time)` when it had to be built, `None` when it was already present.
    pub built_in: Option<Duration>,
}

pub async fn image_exists(docker: &Engine, tag: &str) -> Result<bool, BuildError> {
    engine::image_exists(docker, tag)
        .await
        .map_err(|source| BuildError::Inspect {
            tag: tag.to_owned(),
            source,
        })
}

/// Returns the tag of the base image, building it first when missing (or when `force`).
pub async fn ensure_base_image(
    docker: &Engine,
    recipe: &Recipe,
    force: bool,
    progress: &ProgressBar,
) -> Result<Ensured, BuildError> {
    let tag = recipe.tag();
    if !force && image_exists(docker, &tag).await? {
        return Ok(Ensured {
            tag,
            built_in: None,
        });
    }
    let started = Instant::now();
    let dir = tempfile::Builder::new()
        .prefix("nab-image-")
        .tempdir_in(scratch_dir())?;
    let tarball = dir.path().join("rootfs.tar");
    progress.set_message(format!("building {tag} with mmdebstrap"));
    run_mmdebstrap(recipe, dir.path(), &tarball, progress).await?;
    progress.set_message(format!("importing {tag} into Docker"));
    import(docker, recipe, &tarball).await?;
    Ok(Ensured {
        tag,
        built_in: Some(started.elapsed()),
    })
}

/// A large tarball does not belong in a size-limited /tmp when /var/tmp exists.
fn scratch_dir() -> std::path::PathBuf {
    let var_tmp = Path::new("/var/tmp");
    if var_tmp.is_dir() {
        var_tmp.to_owned()
    } else {
        std::env::temp_dir()
    }
}

async fn run_mmdebstrap(
    recipe: &Recipe,
    dir: &Path,
    tarball: &Path,
    progress: &ProgressBar,
) -> Result<(), BuildError> {
    let sources = host_sources_for(recipe.suite)?;
    let setup = dir.join("setup.sh");
    std::fs::write(&setup, recipe.setup_sh)?;
    let mut cmd = tokio::process::Command::new("mmdebstrap");
    cmd.arg("--variant=minbase")
        .arg("--format=tar")
        .arg(format!("--include={}", recipe.packages().join(",")))
        .arg("--aptopt=Acquire::Languages \"none\"")
        .arg("--dpkgopt=path-exclude=/usr/share/locale/*")
        .arg(format!("--customize-hook=sh {} \"$1\"", setup.display()))
        .arg(recipe.suite)
        .arg(tarball);
    for s in &sources {
        cmd.arg(s.to_mirror_line());
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(BuildError::NoMmdebstrap)?;
    let stderr = child.stderr.take().map(BufReader::new);
    let stdout = child.stdout.take().map(BufReader::new);
    // Keep the last lines for the error message; show the latest as progress.
    let mut tail: std::collections::VecDeque<String> = Default::default();
    let mut lines = futures::stream::select(stream_lines(stderr), stream_lines(stdout));
    while let Some(line) = lines.next().await {
        progress.set_message(format!(
            "mmdebstrap: {}",
            line.chars().take(100).collect::<String>()
        ));
        tracing::debug!(target: "nab::image", "{line}");
        if tail.len() == 30 {
            tail.pop_front();
        }
        tail.push_back(line);
    }
    let status = child.wait().await?;
    if !status.success() {
        return Err(BuildError::Mmdebstrap {
            status: status.to_string(),
            tail: tail.into_iter().collect::<Vec<_>>().join("\n"),
        });
    }
    Ok(())
}

fn stream_lines<R: tokio::io::AsyncBufRead + Unpin + Send + 'static>(
    r: Option<R>,
) -> futures::stream::BoxStream<'static, String> {
    match r {
        Some(r) => futures::stream::unfold(r.lines(), |mut l| async move {
            match l.next_line().await {
                Ok(Some(line)) => Some((line, l)),
                _ => None,
            }
        })
        .boxed(),
        None => futures::stream::empty().boxed(),
    }
}

async fn import(docker: &Engine, recipe: &Recipe, tarball: &Path) -> Result<(), BuildError> {
    let tag = recipe.tag();
    let changes = vec![
        "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_owned(),
        "ENV LANG=C.UTF-8".to_owned(),
        "ENV HOME=/tmp".to_owned(),
        "WORKDIR /workspace".to_owned(),
        "USER 1000:1000".to_owned(),
        format!("LABEL nab.image=base nab.recipe={}", recipe.hash()),
    ];
    engine::import_rootfs(docker, IMAGE_REPO, &recipe.hash(), changes, tarball)
        .await
        .map_err(|e| match e {
            ImportError::Tarball(e) => BuildError::Io(e),
            ImportError::Inspect(source) => BuildError::Inspect { tag, source },
            ImportError::Engine(source) => BuildError::Import { tag, source },
            other => BuildError::Configure {
                tag,
                message: other.to_string(),
            },
        })
}
