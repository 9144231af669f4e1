//! A trial's disk quota, wherever the engine needs it: a host quota (`quota`) for a local
//! engine, one made on the engine's machine (`remote::quota`) for a remote one. The trial
//! holds a [`DiskQuota`] and asks its backend to check and remove it.

use super::remote::quota::EngineQuota;
use super::{Labels, QuotaMount, SandboxError};
use std::path::PathBuf;

/// One disk quota of a trial.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiskQuota {
    /// Mounted on this machine.
    Host(QuotaMount),
    /// Mounted on a remote engine's machine.
    Engine(EngineQuota),
}

impl DiskQuota {
    /// The folder to bind into the container (a path on the engine's machine).
    pub fn mount_path(&self) -> PathBuf {
        match self {
            DiskQuota::Host(q) => q.path(),
            DiskQuota::Engine(q) => PathBuf::from(q.mount_path()),
        }
    }

    /// Whether the mount path is on the engine's machine, not this one.
    pub fn on_engine(&self) -> bool {
        matches!(self, DiskQuota::Engine(_))
    }

    /// Where it lives, for messages.
    pub fn describe(&self) -> String {
        match self {
            DiskQuota::Host(q) => q.dir().display().to_string(),
            DiskQuota::Engine(q) => format!("{} on the engine", q.dir),
        }
    }
}

/// A host quota of `mb` MiB owned inside by `owner` (blocking work off the async threads).
pub(crate) async fn create_on_host(
    labels: &Labels,
    mb: u64,
    owner: u32,
) -> Result<DiskQuota, SandboxError> {
    let labels = labels.clone();
    tokio::task::spawn_blocking(move || {
        QuotaMount::create(&super::quota::state_root(), &labels, mb, owner)
    })
    .await
    .map_err(|e| SandboxError::Io(std::io::Error::other(e)))?
    .map(DiskQuota::Host)
    .map_err(SandboxError::from)
}

pub(crate) async fn host_full(q: &QuotaMount) -> Result<bool, SandboxError> {
    let q = q.clone();
    tokio::task::spawn_blocking(move || q.is_full())
        .await
        .map_err(|e| SandboxError::Io(std::io::Error::other(e)))?
        .map_err(SandboxError::from)
}

pub(crate) async fn remove_on_host(q: &QuotaMount) -> Result<(), SandboxError> {
    let q = q.clone();
    tokio::task::spawn_blocking(move || q.remove())
        .await
        .map_err(|e| SandboxError::Io(std::io::Error::other(e)))?
        .map_err(SandboxError::from)
}
