//! The sandbox: the only module that talks to Docker. The runner sees a backend trait
//! (create, exec by argv, copy in, copy out, destroy) so another backend can follow
//! without touching the runner.

mod capture;
mod chunks;
pub(crate) mod disk_quota;
mod docker;
pub mod engine;
pub(crate) mod host_perms;
mod podman;
pub(crate) mod quota;
mod reaper;
pub mod remote;
mod seccomp;
mod spec;

pub use capture::Capture;
pub use chunks::ChunkReader;
pub use disk_quota::DiskQuota;
pub use docker::DockerBackend;
pub use engine::{ConnectError, Engine, EngineError, PingError, connect, connect_to};
pub use podman::Flavor;
pub use quota::{QuotaError, QuotaMount};
pub use remote::{Remote, RemoteError};
pub use spec::{BindMount, ContainerSpec, Labels, Lockdown, TmpfsMount};

use async_trait::async_trait;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The user the agent and every piece of code from the workspace run as. The container's
/// keeper process runs as another user, which this one cannot signal: nothing the agent or
/// the code it left can stop the container.
pub const SANDBOX_UID: u32 = 1000;
/// The verifier's own user: the test runner, its reports, the hidden tests and
/// /nab/verify. The sandbox user cannot signal, trace or write to anything of it (no
/// capability lets it), so what this user's processes write is out of reach of the code
/// under test (DESIGN.md, trust model).
pub const VERIFIER_UID: u32 = 2000;

/// Who runs an exec'd command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExecUser {
    /// [`SANDBOX_UID`]: the agent, and code from the workspace.
    #[default]
    Sandbox,
    /// [`VERIFIER_UID`]: the test runner, which reaches workspace code only through the
    /// broker.
    Verifier,
}

impl ExecUser {
    pub fn uid(self) -> u32 {
        match self {
            ExecUser::Sandbox => SANDBOX_UID,
            ExecUser::Verifier => VERIFIER_UID,
        }
    }

    /// `uid:gid` for the engine (the group is named too: a bare uid would run in group 0).
    pub fn spec(self) -> String {
        format!("{0}:{0}", self.uid())
    }
}

/// What a backend can do; the runner checks these instead of assuming Docker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// Host paths can be mounted (read-only inputs, the agent binary, a gateway socket).
    pub bind_mounts: bool,
    /// A workspace volume outlives its container, so a fresh verifier can take it over.
    pub shared_volumes: bool,
    /// Files move as tar archives without the host resolving any symlink.
    pub archive_copy: bool,
    /// What the container writes into a writable bind is on the host as it is written.
    /// Without it (a remote engine), the trial copies `/nab/out` back itself.
    pub live_binds: bool,
}

/// A command run by argv — never a shell string the harness builds.
#[derive(Debug, Clone)]
pub struct ExecRequest {
    pub argv: Vec<String>,
    pub user: ExecUser,
    pub env: Vec<String>,
    pub workdir: String,
    pub timeout: Duration,
    /// Bytes of combined stdout+stderr kept; the rest is counted and marked as cut.
    pub output_cap: usize,
}

#[derive(Debug, Clone)]
pub struct ExecOutcome {
    /// None when the process never reported one (killed with its container).
    pub exit_code: Option<i64>,
    /// The deadline passed and the container was killed.
    pub timed_out: bool,
    pub output: Capture,
    /// Standard output alone (same cap), for checks that compare it.
    pub stdout: Capture,
    pub duration: Duration,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    #[error("Docker {action} failed: {source}")]
    Docker {
        action: String,
        #[source]
        source: bollard::errors::Error,
    },
    #[error("interrupted")]
    Cancelled,
    #[error("the workspace archive is larger than {limit} bytes; refusing to copy more")]
    TooLarge { limit: u64 },
    #[error(transparent)]
    Quota(#[from] QuotaError),
    #[error(transparent)]
    Remote(#[from] RemoteError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The engine lacks something the lockdown needs; the text names it and the fix.
    #[error("{0}")]
    Unsupported(String),
}

impl SandboxError {
    pub(crate) fn docker(
        action: impl Into<String>,
    ) -> impl FnOnce(bollard::errors::Error) -> SandboxError {
        let action = action.into();
        move |source| SandboxError::Docker { action, source }
    }
}

/// A process whose standard input and output the harness holds: a server it talks to (a
/// task's MCP server in its sidecar container). It ends when both halves are dropped and
/// its input is closed, or with its container.
pub struct AttachedProcess {
    pub stdin: std::pin::Pin<Box<dyn tokio::io::AsyncWrite + Send>>,
    /// Standard output, chunk by chunk; standard error goes to `stderr`.
    pub stdout: tokio::sync::mpsc::Receiver<bytes::Bytes>,
    /// Standard error, chunk by chunk (for a log; nothing parses it).
    pub stderr: tokio::sync::mpsc::Receiver<bytes::Bytes>,
}

/// Opaque handles; only the backend knows what they mean.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ContainerId(pub String);
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VolumeId(pub String);

/// What `sweep` removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Swept {
    pub containers: usize,
    pub volumes: usize,
    /// Disk-quota images unmounted and deleted (see `quota`).
    pub quotas: usize,
}

#[async_trait]
pub trait SandboxBackend: Send + Sync {
    fn capabilities(&self) -> Capabilities;
    /// Whether the engine answers within `within`; `Err` says why not. The runner asks
    /// after a trial failed, to tell a lost engine from a failed trial.
    async fn ping(&self, within: Duration) -> Result<(), PingError>;
    /// A labelled, empty workspace volume; with `bind`, the volume is that host folder
    /// (a mounted disk quota, see `quota`).
    async fn create_volume(
        &self,
        labels: &Labels,
        bind: Option<&std::path::Path>,
    ) -> Result<VolumeId, SandboxError>;
    /// Creates and starts a locked-down container that idles until commands are exec'd.
    async fn create(&self, spec: &ContainerSpec) -> Result<ContainerId, SandboxError>;
    /// Extracts a tar archive at `dest` inside the container.
    async fn copy_in(&self, c: &ContainerId, dest: &str, tar: Vec<u8>) -> Result<(), SandboxError>;
    /// Runs argv under a deadline; the deadline or `cancel` kills the whole container.
    async fn exec(
        &self,
        c: &ContainerId,
        req: &ExecRequest,
        cancel: &CancellationToken,
    ) -> Result<ExecOutcome, SandboxError>;
    /// Starts argv as `user` and returns at once, leaving it running with no input and its
    /// output discarded (the verifier's broker). It ends with its container, or when the
    /// processes of its user are killed.
    async fn spawn_detached(
        &self,
        c: &ContainerId,
        argv: &[String],
        env: &[String],
        user: ExecUser,
    ) -> Result<(), SandboxError>;
    /// Starts argv as the sandbox user with its standard input and output attached (no
    /// deadline: the caller ends it by closing its input or killing the container).
    async fn attach(
        &self,
        c: &ContainerId,
        argv: &[String],
        env: &[String],
    ) -> Result<AttachedProcess, SandboxError>;
    /// Starts a helper program of nab's own (argv, e.g. the gateway's loopback relay) as
    /// root in the sandbox user's group (it reaches that user's sockets), with no
    /// capability, its standard input and output attached: the sandbox user can neither
    /// signal it nor replace it. It ends when its input is closed, or with its
    /// container.
    async fn attach_helper(
        &self,
        c: &ContainerId,
        argv: &[String],
    ) -> Result<AttachedProcess, SandboxError>;
    /// Streams `path` out as a tar archive, chunk by chunk, into `into` (at most `limit`
    /// bytes; past it, [`SandboxError::TooLarge`]). A receiver that hangs up ends the
    /// copy without an error: the reader has seen enough.
    async fn copy_out(
        &self,
        c: &ContainerId,
        path: &str,
        into: tokio::sync::mpsc::Sender<bytes::Bytes>,
        limit: u64,
    ) -> Result<(), SandboxError>;
    /// Stops every process in the container (it stays until `destroy`).
    async fn kill(&self, c: &ContainerId) -> Result<(), SandboxError>;
    /// Kills every process of the sandbox user ([`SANDBOX_UID`]) in `c`, leaving the
    /// container running (its keeper is another user). `Ok(false)` when some process of
    /// the sandbox user was still there after a few rounds (a fork race it won).
    async fn kill_sandbox_user(
        &self,
        c: &ContainerId,
        cancel: &CancellationToken,
    ) -> Result<bool, SandboxError>;
    /// Whether `c` is still running: `Ok(false)` when it stopped or is gone, an error only
    /// when the engine cannot say.
    async fn is_running(&self, c: &ContainerId) -> Result<bool, SandboxError>;
    async fn destroy(&self, c: &ContainerId) -> Result<(), SandboxError>;
    async fn destroy_volume(&self, v: &VolumeId) -> Result<(), SandboxError>;
    /// Removes every container and volume whose labels match `label` (`key` or
    /// `key=value`), then every disk quota so labelled.
    async fn sweep(&self, label: &str) -> Result<Swept, SandboxError>;
    /// A disk quota of `mb` MiB for `labels`, owned inside by `owner`, where this backend's
    /// containers can bind it (`image`: one the engine has, for engines that make quotas
    /// with a helper container). By default a quota on this machine (`quota`).
    async fn create_quota(
        &self,
        labels: &Labels,
        mb: u64,
        owner: u32,
        image: &str,
    ) -> Result<DiskQuota, SandboxError> {
        let _ = image;
        disk_quota::create_on_host(labels, mb, owner).await
    }
    /// Whether the agent used the whole quota (less than 1 MiB, or no inode, left).
    async fn quota_full(&self, q: &DiskQuota) -> Result<bool, SandboxError> {
        match q {
            DiskQuota::Host(h) => disk_quota::host_full(h).await,
            DiskQuota::Engine(_) => Err(RemoteError::NotRemote.into()),
        }
    }
    /// Unmounts and deletes the quota (safe to call again).
    async fn remove_quota(&self, q: &DiskQuota) -> Result<(), SandboxError> {
        match q {
            DiskQuota::Host(h) => disk_quota::remove_on_host(h).await,
            DiskQuota::Engine(_) => Err(RemoteError::NotRemote.into()),
        }
    }
}
