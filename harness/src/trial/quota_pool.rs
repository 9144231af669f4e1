//! Disk quotas made ahead: making one (an image formatted, then loop-mounted) is a tenth of
//! a second of a trial's path, so the run keeps the next one being made while trials run.
//! A trial takes a quota that is ready (or nearly), and the next one starts; each is fresh,
//! made for one trial and removed with it, never reused. Only quotas on this machine, for a
//! local engine, are made ahead; the run removes the ones no trial took at its end.

use crate::env::sandbox::{DiskQuota, Labels, SandboxError, disk_quota};
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::task::JoinHandle;

type Making = JoinHandle<Result<DiskQuota, SandboxError>>;

/// One quota being made ahead per size (MiB) and owner.
#[derive(Default)]
pub struct QuotaPool {
    next: Mutex<HashMap<(u64, u32), Making>>,
}

impl QuotaPool {
    fn next(&self) -> std::sync::MutexGuard<'_, HashMap<(u64, u32), Making>> {
        self.next.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn make(run: &str, mb: u64, owner: u32) -> Making {
        // Labelled with the run alone: `nab clean --run` finds it whoever took it.
        let labels = Labels {
            run: run.to_owned(),
            role: "quota".into(),
            ..Labels::default()
        };
        tokio::spawn(async move { disk_quota::create_on_host(&labels, mb, owner).await })
    }

    /// A fresh quota of `mb` MiB owned inside by `owner` on this machine: the one made
    /// ahead when there is one, else one made now; either way the next starts being made.
    pub(crate) async fn take(
        &self,
        labels: &Labels,
        mb: u64,
        owner: u32,
    ) -> Result<DiskQuota, SandboxError> {
        let ahead = {
            let mut next = self.next();
            let ahead = next.remove(&(mb, owner));
            next.insert((mb, owner), Self::make(&labels.run, mb, owner));
            ahead
        };
        match ahead {
            Some(making) => match making.await {
                Ok(made) => made,
                Err(e) => Err(SandboxError::Io(std::io::Error::other(e))),
            },
            None => disk_quota::create_on_host(labels, mb, owner).await,
        }
    }

    /// Removes the quotas made ahead that no trial took (the run's end).
    pub async fn drain(&self) {
        let making: Vec<Making> = self.next().drain().map(|(_, m)| m).collect();
        for m in making {
            match m.await {
                Ok(Ok(DiskQuota::Host(q))) => {
                    if let Err(e) = disk_quota::remove_on_host(&q).await {
                        tracing::warn!("removing disk quota {}: {e}", q.dir().display());
                    }
                }
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::warn!("a disk quota made ahead: {e}"),
                Err(e) => tracing::warn!("a disk quota made ahead: {e}"),
            }
        }
    }
}
