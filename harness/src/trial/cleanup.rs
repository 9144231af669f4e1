//! What a trial made, and its removal on every path out. Removals of one kind run at
//! once (the engine removes two containers about as fast as one); the kinds go in order,
//! since each binds the next: containers, then the volumes they mounted, then the disk
//! quotas the volumes are.

use crate::env::sandbox::{ContainerId, DiskQuota, SandboxBackend, VolumeId};
use futures::future::join_all;
use std::time::Duration;

/// How long one container or volume removal may take at the end of a trial.
pub(crate) const CLEANUP_DEADLINE: Duration = Duration::from_secs(5);
/// How long removing a disk quota on a remote engine may take (a helper container).
const QUOTA_HELPER_DEADLINE: Duration = Duration::from_secs(30);

/// What must be removed when the trial ends, whichever way it ends.
#[derive(Default)]
pub(crate) struct Created {
    pub(crate) containers: Vec<ContainerId>,
    pub(crate) volumes: Vec<VolumeId>,
    /// Disk quotas (workspace, /nab/out): removed last, once nothing binds them.
    pub(crate) quotas: Vec<DiskQuota>,
}

/// Removes everything in `created`. Not cancellable: it must finish even after Ctrl-C.
/// Each removal has a deadline, so an engine that hangs cannot keep the run from exiting
/// (the end-of-run sweep and `nab clean` remove what is left).
pub(crate) async fn remove_all(backend: &dyn SandboxBackend, created: Created) {
    join_all(created.containers.iter().map(|c| async move {
        match tokio::time::timeout(CLEANUP_DEADLINE, backend.destroy(c)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("could not remove container {}: {e}", c.0),
            Err(_) => tracing::warn!("removing container {} timed out", c.0),
        }
    }))
    .await;
    join_all(created.volumes.iter().map(|v| async move {
        match tokio::time::timeout(CLEANUP_DEADLINE, backend.destroy_volume(v)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("could not remove volume {}: {e}", v.0),
            Err(_) => tracing::warn!("removing volume {} timed out", v.0),
        }
    }))
    .await;
    join_all(created.quotas.iter().map(|q| async move {
        // A helper container on a remote engine takes longer than an unmount here.
        let deadline = if q.on_engine() {
            QUOTA_HELPER_DEADLINE
        } else {
            CLEANUP_DEADLINE
        };
        match tokio::time::timeout(deadline, backend.remove_quota(q)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("removing disk quota {}: {e}", q.describe()),
            Err(_) => tracing::warn!("removing disk quota {} timed out", q.describe()),
        }
    }))
    .await;
}

/// Removals handed over by trials that reached their record, finished in the background
/// while the run goes on (the next trial need not wait for the last one's containers to
/// go); the runner waits for them all before its end-of-run sweep. Dropped before that
/// (a second Ctrl-C), they stop where they are and `nab clean` removes what is left.
#[derive(Clone, Default)]
pub struct Reaper {
    pending: std::sync::Arc<std::sync::Mutex<tokio::task::JoinSet<()>>>,
}

impl Reaper {
    fn set(&self) -> std::sync::MutexGuard<'_, tokio::task::JoinSet<()>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Removes `created` in the background.
    pub(crate) fn defer(&self, backend: std::sync::Arc<dyn SandboxBackend>, created: Created) {
        let mut set = self.set();
        // Forget the ones already done, so a long run does not keep them all.
        while set.try_join_next().is_some() {}
        set.spawn(async move { remove_all(backend.as_ref(), created).await });
    }

    /// Waits until every removal handed over so far has finished.
    pub async fn wait(&self) {
        let mut set = std::mem::take(&mut *self.set());
        while set.join_next().await.is_some() {}
    }
}
