//! The Docker engine: connecting to it, and the image calls the base-image build and
//! `nab image` make (`images`). The sandbox is the only module that speaks bollard;
//! everything else holds an [`Engine`] and calls these functions.

mod images;
mod import;
pub mod ssh;
pub mod url;

pub use images::{BuildEvent, build_image, image_labels, images_labelled, remove_image};
pub use import::{ImportError, import_rootfs};

use futures::StreamExt;
use std::path::PathBuf;
use std::time::Duration;
use url::{EngineAddr, Tls};

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
    #[error("cannot reach the Docker engine {engine} ({source})")]
    UnreachableAt {
        engine: String,
        #[source]
        source: EngineError,
    },
    #[error(
        "engine {engine}: TLS file {} is missing or unreadable (set DOCKER_CERT_PATH or #tls=DIR)",
        path.display()
    )]
    Certificate { engine: String, path: PathBuf },
    #[error("engine {engine}: {source}")]
    Ssh {
        engine: String,
        #[source]
        source: ssh::SshError,
    },
}

/// Our own deadlines bound every call; bollard's default 2-minute request timeout would
/// cut long agent runs and image imports short.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// Connects with the local defaults (DOCKER_HOST or the Unix socket) and negotiates the API
/// version down to what the engine speaks: bollard's default is newer than older engines.
pub async fn connect() -> Result<Engine, ConnectError> {
    let docker = Engine::connect_with_defaults().map_err(ConnectError::Unreachable)?;
    docker
        .with_timeout(REQUEST_TIMEOUT)
        .negotiate_version()
        .await
        .map_err(ConnectError::Unreachable)
}

/// Connects to the engine at `addr` (`--engine`) and negotiates the API version.
pub async fn connect_to(addr: &EngineAddr) -> Result<Engine, ConnectError> {
    let engine = addr.to_string();
    let unreachable = |source| ConnectError::UnreachableAt {
        engine: engine.clone(),
        source,
    };
    let secs = REQUEST_TIMEOUT.as_secs();
    let version = bollard::API_DEFAULT_VERSION;
    let docker = match addr {
        EngineAddr::Default => return connect().await,
        EngineAddr::Unix(path) => Engine::connect_with_unix(&path.to_string_lossy(), secs, version)
            .map_err(unreachable)?,
        EngineAddr::Ssh(target) => {
            let socket = ssh::bridge(target)
                .await
                .map_err(|source| ConnectError::Ssh {
                    engine: engine.clone(),
                    source,
                })?;
            Engine::connect_with_unix(&socket.to_string_lossy(), secs, version)
                .map_err(unreachable)?
        }
        EngineAddr::Tcp {
            host,
            port,
            tls: Tls::Off,
        } => Engine::connect_with_http(&format!("tcp://{host}:{port}"), secs, version)
            .map_err(unreachable)?,
        EngineAddr::Tcp { host, port, tls } => {
            let dir = match tls {
                Tls::Dir(d) => d.clone(),
                _ => cert_path_from_env(),
            };
            let [ca, cert, key] = ["ca.pem", "cert.pem", "key.pem"].map(|f| dir.join(f));
            // bollard reports a missing file without saying which engine wanted it.
            for path in [&ca, &cert, &key] {
                if std::fs::File::open(path).is_err() {
                    return Err(ConnectError::Certificate {
                        engine: engine.clone(),
                        path: path.clone(),
                    });
                }
            }
            Engine::connect_with_ssl(
                &format!("tcp://{host}:{port}"),
                &key,
                &cert,
                &ca,
                secs,
                version,
            )
            .map_err(unreachable)?
        }
    };
    docker.negotiate_version().await.map_err(unreachable)
}

/// `DOCKER_CERT_PATH`, else `~/.docker`, as the docker CLI reads them.
fn cert_path_from_env() -> PathBuf {
    match std::env::var_os("DOCKER_CERT_PATH").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".docker"),
    }
}

/// Whether the engine answers `/_ping` within `within`: how the pool tells a dead engine
/// from a trial that failed on a live one.
pub async fn ping(engine: &Engine, within: Duration) -> Result<(), PingError> {
    match tokio::time::timeout(within, engine.ping()).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(PingError::Refused(e)),
        Err(_) => Err(PingError::NoAnswer {
            secs: within.as_secs(),
        }),
    }
}

/// Why an engine did not answer a ping.
#[derive(Debug, thiserror::Error)]
pub enum PingError {
    #[error("{0}")]
    Refused(#[source] EngineError),
    #[error("no answer to a ping within {secs} s")]
    NoAnswer { secs: u64 },
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

/// Copies the image tagged `tag` from `from` to `to` (`docker save | docker load`, streamed
/// without touching the disk), then checks the tag arrived.
pub async fn copy_image(from: &Engine, to: &Engine, tag: &str) -> Result<(), EngineError> {
    let export = from.export_image(tag);
    let options = bollard::query_parameters::ImportImageOptionsBuilder::default()
        .quiet(true)
        .build();
    let mut events = to.import_image_stream(options, export, None);
    while let Some(ev) = events.next().await {
        let ev = ev?;
        if let Some(e) = ev.error_detail.and_then(|d| d.message) {
            return Err(EngineError::DockerStreamError { error: e });
        }
    }
    if !image_exists(to, tag).await? {
        return Err(EngineError::DockerStreamError {
            error: format!("{tag} is absent after loading it"),
        });
    }
    Ok(())
}
