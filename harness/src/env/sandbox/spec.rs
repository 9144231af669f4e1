//! What a container should be. The lock-down is not optional: every container the
//! harness creates gets all of it.

use std::collections::HashMap;
use std::path::PathBuf;

/// `nab.run`, `nab.task`, `nab.trial` (and a role): how leftovers are found and removed.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    pub run: String,
    pub task: String,
    pub trial: String,
    /// `agent` or `verify`.
    pub role: String,
}

impl Labels {
    pub fn to_map(&self) -> HashMap<String, String> {
        HashMap::from([
            ("nab.run".to_owned(), self.run.clone()),
            ("nab.task".to_owned(), self.task.clone()),
            ("nab.trial".to_owned(), self.trial.clone()),
            ("nab.role".to_owned(), self.role.clone()),
        ])
    }
}

/// A host path mounted into the container.
#[derive(Debug, Clone)]
pub struct BindMount {
    pub host: PathBuf,
    pub container: String,
    pub read_only: bool,
    /// `host` is a path on the engine's machine (a disk quota made there), bound as it is
    /// even on a remote engine, where host paths are copied instead.
    pub on_engine: bool,
}

/// A size-limited tmpfs, owned by `uid` with permissions `mode`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmpfsMount {
    pub path: String,
    pub mb: i64,
    pub uid: u32,
    pub mode: u32,
}

impl TmpfsMount {
    /// A folder every user may write to (like /tmp).
    pub fn shared(path: &str, mb: i64) -> TmpfsMount {
        TmpfsMount {
            path: path.to_owned(),
            mb,
            uid: 0,
            mode: 0o1777,
        }
    }

    /// The mount options Docker passes on to the kernel.
    pub fn options(&self) -> String {
        format!(
            "rw,nosuid,nodev,exec,size={}m,mode={:o},uid={2},gid={2}",
            self.mb, self.mode, self.uid
        )
    }
}

/// Resource limits, from the task.
#[derive(Debug, Clone, Copy)]
pub struct Lockdown {
    pub cpus: f64,
    pub memory_mb: i64,
    pub pids: i64,
    /// Size of the tmpfs at /tmp.
    pub tmp_mb: i64,
}

#[derive(Debug, Clone)]
pub struct ContainerSpec {
    pub image: String,
    pub labels: Labels,
    pub limits: Lockdown,
    /// The workspace volume, mounted read-write at /workspace.
    pub workspace: Option<super::VolumeId>,
    pub binds: Vec<BindMount>,
    /// Anonymous volumes (removed with the container), by mount path: filled by
    /// `copy_in` after the container starts (the root file system is read-only).
    pub scratch_volumes: Vec<String>,
    /// Extra size-limited tmpfs mounts, e.g. /nab/verify in the verifier.
    pub tmpfs: Vec<TmpfsMount>,
    pub env: Vec<String>,
}
