//! Connecting to the Docker engine.

use bollard::Docker;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    #[error(
        "cannot reach the Docker engine ({0}); is dockerd running and is DOCKER_HOST (if set) right?"
    )]
    Unreachable(bollard::errors::Error),
}

/// Connects with the local defaults (DOCKER_HOST or the Unix socket) and negotiates the API
/// version down to what the engine speaks: bollard's default is newer than older engines.
pub async fn connect() -> Result<Docker, ConnectError> {
    let docker = Docker::connect_with_local_defaults().map_err(ConnectError::Unreachable)?;
    // Our own deadlines bound every call; bollard's default 2-minute request timeout would
    // cut long agent runs and image imports short.
    let docker = docker.with_timeout(Duration::from_secs(24 * 3600));
    docker
        .negotiate_version()
        .await
        .map_err(ConnectError::Unreachable)
}
