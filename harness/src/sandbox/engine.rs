//! The Docker engine: connecting to it, and the image calls the base-image build and
//! `nab image` make ([`images`]). The sandbox is the only module that speaks bollard;
//! everything else holds an [`Engine`] and calls these functions.

mod images;

pub use images::{
    BuildEvent, ImageSummary, build_image, image_labels, images_labelled, remove_image,
};

use bollard::query_parameters::CreateImageOptionsBuilder;
use futures::StreamExt;
use std::path::Path;
use std::time::Duration;

/// A connection to the Docker engine.
pub type Engine = bollard::Docker;
/// An error the engine (or the connection to it) returned.
pub type EngineError = bollard::errors::Error;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    #[error(
        "cannot reach the Docker engine ({0}); is dockerd running and is DOCKER_HOST (if set) right?"
    )]
    Unreachable(EngineError),
}

/// Connects with the local defaults (DOCKER_HOST or the Unix socket) and negotiates the API
/// version down to what the engine speaks: bollard's default is newer than older engines.
pub async fn connect() -> Result<Engine, ConnectError> {
    let docker = Engine::connect_with_local_defaults().map_err(ConnectError::Unreachable)?;
    // Our own deadlines bound every call; bollard's default 2-minute request timeout would
    // cut long agent runs and image imports short.
    let docker = docker.with_timeout(Duration::from_secs(24 * 3600));
    docker
        .negotiate_version()
        .await
        .map_err(ConnectError::Unreachable)
}

/// Whether the engine has an image tagged `tag`.
pub async fn image_exists(engine: &Engine, tag: &str) -> Result<bool, EngineError> {
    match engine.inspect_image(tag).await {
        Ok(_) => Ok(true),
        Err(EngineError::DockerResponseServerError {
            status_code: 404, ..
        }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Imports a root file system tarball as `repo:tag` with Dockerfile-style `changes`
/// (`POST /images/create` with `fromSrc=-`, the API form of `docker import`;
/// `import_image` would be `docker load`), then checks the tag exists: an import that
/// streams no error can still fail silently.
pub async fn import_rootfs(
    engine: &Engine,
    repo: &str,
    tag: &str,
    changes: Vec<String>,
    tarball: &Path,
) -> Result<(), ImportError> {
    let options = CreateImageOptionsBuilder::default()
        .from_src("-")
        .repo(repo)
        .tag(tag)
        .changes(changes)
        .build();
    let file = tokio::fs::File::open(tarball).await?;
    let body = tokio_util::io::ReaderStream::new(file);
    let mut events = engine.create_image(Some(options), Some(bollard::body_try_stream(body)), None);
    while let Some(ev) = events.next().await {
        ev?;
    }
    if !image_exists(engine, &format!("{repo}:{tag}"))
        .await
        .map_err(ImportError::Inspect)?
    {
        return Err(ImportError::Engine(EngineError::DockerStreamError {
            error: "the image is absent after import".into(),
        }));
    }
    Ok(())
}

/// Why an import failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    #[error("cannot read the tarball: {0}")]
    Tarball(#[from] std::io::Error),
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The check after the import failed.
    #[error(transparent)]
    Inspect(EngineError),
}
