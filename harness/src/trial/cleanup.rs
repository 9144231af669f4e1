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
