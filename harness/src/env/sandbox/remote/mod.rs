//! Engines that share no paths with this machine (`--engine tcp://…`, `ssh://…`, or any
//! engine with `#remote`): what a local engine gets by bind mounts, a remote one gets
//! through its API. Host files are copied into the container's `/nab` (`carry`), the
//! host's Unix sockets (the model gateway, MCP servers) are reached through `nab-relay`
//! over an exec stream (`relay`), and what the agent writes to `/nab/out` is copied back
//! after it stops (the trial asks: see `Capabilities::live_binds`).

pub(crate) mod carry;
pub mod quota;
pub(crate) mod relay;

use super::{ContainerId, ContainerSpec};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// Why a container could not be set up on a remote engine.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RemoteError {
    #[error(transparent)]
    Carry(#[from] carry::CarryError),
    #[error(transparent)]
    Relay(#[from] relay::RelayError),
    #[error("a disk quota on a remote engine was handed to a backend of a local one")]
    NotRemote,
    #[error("no nab-relay binary was located for this remote engine")]
    NoRelay,
}

/// What a backend needs for a remote engine.
#[derive(Debug)]
pub struct Remote {
    /// The `nab-relay` binary on this machine, copied into containers that need sockets
    /// (`None` for commands that start no trial, such as `nab clean`).
    relay_bin: Option<PathBuf>,
    /// The relay of each container that has one, ended with it.
    relays: Mutex<HashMap<String, tokio::task::AbortHandle>>,
}

impl Remote {
    pub fn new(relay_bin: Option<PathBuf>) -> Remote {
        Remote {
            relay_bin,
            relays: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn relay_bin(&self) -> Result<&std::path::Path, RemoteError> {
        self.relay_bin.as_deref().ok_or(RemoteError::NoRelay)
    }

    pub(crate) fn keep_relay(&self, c: &ContainerId, handle: tokio::task::AbortHandle) {
        let mut relays = self.relays.lock().unwrap_or_else(|p| p.into_inner());
        relays.insert(c.0.clone(), handle);
    }

    /// Ends the relay of `c`, if it has one.
    pub(crate) fn end_relay(&self, c: &ContainerId) {
        let mut relays = self.relays.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(h) = relays.remove(&c.0) {
            h.abort();
        }
    }
}

/// `spec` without the binds of this machine's paths (those on the engine's machine stay),
/// with `/nab` a scratch volume to carry them into.
pub(crate) fn without_binds(spec: &ContainerSpec) -> ContainerSpec {
    let mut local = spec.clone();
    local.binds.retain(|b| b.on_engine);
    if !local.scratch_volumes.iter().any(|v| v == carry::ROOT) {
        local.scratch_volumes.push(carry::ROOT.to_owned());
    }
    local
}
