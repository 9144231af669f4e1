//! The Docker backend. Every container is locked down the same way; see `create`.

use super::podman::{self, Flavor};
use super::{
    AttachedProcess, Capabilities, Capture, ContainerId, ContainerSpec, ExecOutcome, ExecRequest,
    Labels, SandboxBackend, SandboxError, Swept, VolumeId,
};
use async_trait::async_trait;
use bollard::Docker;
use bollard::container::LogOutput;
use bollard::exec::{StartExecOptions, StartExecResults};
use bollard::models::{
    ContainerCreateBody, ExecConfig, HostConfig, Mount, MountType, VolumeCreateRequest,
};
use bollard::query_parameters::{
    DownloadFromContainerOptionsBuilder, KillContainerOptionsBuilder, ListContainersOptionsBuilder,
    ListVolumesOptionsBuilder, RemoveContainerOptionsBuilder, RemoveVolumeOptionsBuilder,
    UploadToContainerOptionsBuilder,
};
use futures::StreamExt;
use std::collections::HashMap;
use std::time::Instant;
use tokio_util::sync::CancellationToken;

/// The container's own process: idles so commands can be exec'd, and dies with SIGKILL.
const IDLE: [&str; 2] = ["sleep", "infinity"];
/// Who runs the keeper (and the init that reaps for it): root without any capability, so
/// it can do nothing but idle, yet the sandbox user cannot signal it (that needs CAP_KILL
/// or the same uid).
const KEEPER_USER: &str = "0:0";
/// Reaper runs (each kills and looks again for about a second) before giving up.
const REAP_ROUNDS: usize = 5;

fn sandbox_user() -> String {
    super::ExecUser::Sandbox.spec()
}

#[derive(Clone)]
pub struct DockerBackend {
    docker: Docker,
    /// Set for an engine that shares no paths with this machine (see `remote`).
    remote: Option<std::sync::Arc<super::Remote>>,
    /// Docker or Podman, asked once, at the first container.
    flavor: std::sync::Arc<tokio::sync::OnceCell<Flavor>>,
}

impl DockerBackend {
    pub fn new(docker: Docker) -> Self {
        DockerBackend {
            docker,
            remote: None,
            flavor: Default::default(),
        }
    }

    /// A backend for an engine that cannot see this machine's files: binds are carried
    /// through the API instead (see `remote`).
    pub fn remote(docker: Docker, remote: super::Remote) -> Self {
        DockerBackend {
            docker,
            remote: Some(std::sync::Arc::new(remote)),
            flavor: Default::default(),
        }
    }

    /// Which engine this is (Docker, or Podman with its version).
    pub async fn flavor(&self) -> Result<&Flavor, SandboxError> {
        self.flavor
            .get_or_try_init(|| super::podman::detect(&self.docker))
            .await
    }

    pub fn docker(&self) -> &Docker {
        &self.docker
    }

    async fn create_started(&self, spec: &ContainerSpec) -> Result<ContainerId, SandboxError> {
        let flavor = self.flavor().await?.clone();
        let body = ContainerCreateBody {
            image: Some(spec.image.clone()),
            cmd: Some(IDLE.iter().map(|s| s.to_string()).collect()),
            entrypoint: Some(vec![]),
            user: Some(KEEPER_USER.into()),
            env: Some(spec.env.clone()),
            working_dir: Some("/workspace".into()),
            labels: Some(spec.labels.to_map()),
            network_disabled: Some(true),
            hostname: Some("sandbox".into()),
            host_config: Some(Self::host_config(
                spec,
                &flavor,
                podman::security_opt(&flavor)?,
            )),
            ..Default::default()
        };
        let created = self
            .docker
            .create_container(None, body)
            .await
            .map_err(|e| {
                with_hint(
                    &flavor,
                    SandboxError::docker(format!("create container from {}", spec.image))(e),
                )
            })?;
        let id = ContainerId(created.id);
        let started = match self.docker.start_container(&id.0, None).await {
            Err(e) => Err(with_hint(
                &flavor,
                SandboxError::docker("start container")(e),
            )),
            Ok(()) if matches!(flavor, Flavor::Podman(_)) => {
                podman::settle(&self.docker, &id, &Self::tmpfs_mounts(spec), &spec.limits).await
            }
            Ok(()) => Ok(()),
        };
        if let Err(e) = started {
            let _ = self.destroy(&id).await;
            return Err(e);
        }
        Ok(id)
    }

    /// A container on a remote engine: created without binds, then given what they held
    /// (files copied into `/nab`, sockets relayed by `nab-relay`).
    async fn create_remote(
        &self,
        remote: &super::Remote,
        spec: &ContainerSpec,
    ) -> Result<ContainerId, SandboxError> {
        use super::remote::{RemoteError, carry, relay};
        let carried = carry::carry(&spec.binds, remote.relay_bin()?).map_err(RemoteError::from)?;
        let id = self
            .create_started(&super::remote::without_binds(spec))
            .await?;
        let set_up = async {
            if !carried.tar.is_empty() {
                self.copy_in(&id, carry::ROOT, carried.tar).await?;
            }
            if carried.sockets.is_empty() {
                return Ok(());
            }
            let mut argv = vec![format!("{}/{}", carry::ROOT, carry::RELAY_PATH)];
            argv.extend(carried.sockets.iter().map(|s| s.container.clone()));
            let proc = self.attach_as(&id, &argv, &[], KEEPER_USER).await?;
            let handle = relay::start(proc, &carried.sockets)
                .await
                .map_err(RemoteError::from)?;
            remote.keep_relay(&id, handle.abort_handle());
            Ok::<(), SandboxError>(())
        };
        if let Err(e) = set_up.await {
            let _ = self.destroy(&id).await;
            return Err(e);
        }
        Ok(id)
    }

    /// Starts argv as `user` (`uid:gid`) with its standard input and output attached.
    async fn attach_as(
        &self,
        c: &ContainerId,
        argv: &[String],
        env: &[String],
        user: &str,
    ) -> Result<AttachedProcess, SandboxError> {
        let exec = self
            .docker
            .create_exec(
                &c.0,
                ExecConfig {
                    cmd: Some(argv.to_vec()),
                    env: Some(env.to_vec()),
                    working_dir: Some("/".into()),
                    user: Some(user.to_owned()),
                    attach_stdout: Some(true),
                    attach_stderr: Some(true),
                    attach_stdin: Some(true),
                    tty: Some(false),
                    privileged: Some(false),
                    ..Default::default()
                },
            )
            .await
            .map_err(SandboxError::docker("create attached exec"))?;
        let (mut output, input) = match self
            .docker
            .start_exec(&exec.id, Some(StartExecOptions::default()))
            .await
            .map_err(SandboxError::docker("start attached exec"))?
        {
            StartExecResults::Attached { output, input } => (output, input),
            StartExecResults::Detached => {
                return Err(SandboxError::Io(std::io::Error::other(
                    "exec unexpectedly detached",
                )));
            }
        };
        // Small channels: a reader that stops reading stops the pump, and Docker's
        // stream waits (the process blocks on a full pipe) instead of memory growing.
        let (out_tx, stdout) = tokio::sync::mpsc::channel(8);
        let (err_tx, stderr) = tokio::sync::mpsc::channel(8);
        tokio::spawn(async move {
            while let Some(Ok(item)) = output.next().await {
                let sent = match item {
                    LogOutput::StdOut { message } | LogOutput::Console { message } => {
                        out_tx.send(message).await.is_ok()
                    }
                    // Nobody reading standard error must not stop standard output.
                    LogOutput::StdErr { message } => {
                        let _ = err_tx.try_send(message);
                        true
                    }
                    LogOutput::StdIn { .. } => true,
                };
                if !sent {
                    break;
                }
            }
        });
        Ok(AttachedProcess {
            stdin: input,
            stdout,
            stderr,
        })
    }

    /// Every tmpfs of a container: /tmp and the spec's own.
    fn tmpfs_mounts(spec: &ContainerSpec) -> Vec<super::TmpfsMount> {
        let mut all = vec![super::TmpfsMount::shared("/tmp", spec.limits.tmp_mb)];
        all.extend(spec.tmpfs.iter().cloned());
        all
    }

    fn host_config(spec: &ContainerSpec, flavor: &Flavor, security_opt: Vec<String>) -> HostConfig {
        let mut mounts = Vec::new();
        if let Some(v) = &spec.workspace {
            mounts.push(Mount {
                target: Some("/workspace".into()),
                source: Some(v.0.clone()),
                typ: Some(MountType::VOLUME),
                read_only: Some(false),
                ..Default::default()
            });
        }
        for b in &spec.binds {
            mounts.push(Mount {
                target: Some(b.container.clone()),
                source: Some(b.host.to_string_lossy().into_owned()),
                typ: Some(MountType::BIND),
                read_only: Some(b.read_only),
                ..Default::default()
            });
        }
        for path in &spec.scratch_volumes {
            mounts.push(Mount {
                target: Some(path.clone()),
                typ: Some(MountType::VOLUME),
                read_only: Some(false),
                ..Default::default()
            });
        }
        // tmpfs sizes bound memory use from files; mode 1777 lets uid 1000 write /tmp.
        let tmpfs = Self::tmpfs_mounts(spec)
            .iter()
            .map(|t| (t.path.clone(), podman::tmpfs_options(t, flavor)))
            .collect();
        let memory = spec.limits.memory_mb * 1024 * 1024;
        HostConfig {
            network_mode: Some("none".into()),
            readonly_rootfs: Some(true),
            cap_drop: Some(vec!["ALL".into()]),
            security_opt: Some(security_opt),
            privileged: Some(false),
            pids_limit: Some(spec.limits.pids),
            memory: Some(memory),
            // Equal to memory: no swap on top of the limit.
            memory_swap: Some(memory),
            nano_cpus: Some((spec.limits.cpus * 1e9) as i64),
            tmpfs: Some(tmpfs),
            mounts: Some(mounts),
            // A real init reaps what agents leave behind.
            init: Some(true),
            ipc_mode: Some("private".into()),
            ..Default::default()
        }
    }
}

impl DockerBackend {
    /// Streams the archive of `path` into `into`, at most `limit` bytes.
    async fn download(
        &self,
        c: &ContainerId,
        path: &str,
        into: tokio::sync::mpsc::Sender<bytes::Bytes>,
        limit: u64,
    ) -> Result<(), SandboxError> {
        let opts = DownloadFromContainerOptionsBuilder::default()
            .path(path)
            .build();
        let mut stream = self.docker.download_from_container(&c.0, Some(opts));
        let mut total = 0u64;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(SandboxError::docker(format!("copy {path} out")))?;
            total += chunk.len() as u64;
            if total > limit {
                return Err(SandboxError::TooLarge { limit });
            }
            if into.send(chunk).await.is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// `e` with Podman's hint for it, when there is one.
fn with_hint(flavor: &Flavor, e: SandboxError) -> SandboxError {
    let text = e.to_string();
    match (flavor, podman::hint(&text)) {
        (Flavor::Podman(v), Some(hint)) => {
            SandboxError::Unsupported(format!("{text}\n(Podman {v}) {hint}"))
        }
        _ => e,
    }
}

fn label_filter(label: &str) -> HashMap<String, Vec<String>> {
    HashMap::from([("label".to_owned(), vec![label.to_owned()])])
}

fn is_not_found(e: &bollard::errors::Error) -> bool {
    matches!(
        e,
        bollard::errors::Error::DockerResponseServerError {
            status_code: 404,
            ..
        }
    )
}

#[async_trait]
impl SandboxBackend for DockerBackend {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            bind_mounts: true,
            shared_volumes: true,
            archive_copy: true,
            live_binds: self.remote.is_none(),
        }
    }

    async fn ping(&self, within: std::time::Duration) -> Result<(), super::PingError> {
        super::engine::ping(&self.docker, within).await
    }

    async fn create_volume(
        &self,
        labels: &Labels,
        bind: Option<&std::path::Path>,
    ) -> Result<VolumeId, SandboxError> {
        // The local driver binds the folder when a container mounts the volume.
        let driver_opts = bind.map(|p| {
            HashMap::from([
                ("type".to_owned(), "none".to_owned()),
                ("o".to_owned(), "bind".to_owned()),
                ("device".to_owned(), p.to_string_lossy().into_owned()),
            ])
        });
        let v = self
            .docker
            .create_volume(VolumeCreateRequest {
                labels: Some(labels.to_map()),
                driver_opts,
                ..Default::default()
            })
            .await
            .map_err(SandboxError::docker("create volume"))?;
        Ok(VolumeId(v.name))
    }

    async fn create(&self, spec: &ContainerSpec) -> Result<ContainerId, SandboxError> {
        match &self.remote {
            Some(remote) => self.create_remote(remote, spec).await,
            None => self.create_started(spec).await,
        }
    }

    async fn copy_in(&self, c: &ContainerId, dest: &str, tar: Vec<u8>) -> Result<(), SandboxError> {
        let opts = UploadToContainerOptionsBuilder::default()
            .path(dest)
            .build();
        self.docker
            .upload_to_container(&c.0, Some(opts), bollard::body_full(tar.into()))
            .await
            .map_err(SandboxError::docker(format!("copy into {dest}")))
    }
    async fn exec(
        &self,
        c: &ContainerId,
        req: &ExecRequest,
        cancel: &CancellationToken,
    ) -> Result<ExecOutcome, SandboxError> {
        let started = Instant::now();
        let exec = self
            .docker
            .create_exec(&c.0, exec_config(req))
            .await
            .map_err(SandboxError::docker("create exec"))?;
        let mut output = Capture::with_cap(req.output_cap);
        let mut stdout = Capture::with_cap(req.output_cap);
        let start = self
            .docker
            .start_exec(&exec.id, Some(StartExecOptions::default()));
        let mut stream = match tokio::select! {
            r = start => r.map_err(SandboxError::docker("start exec"))?,
            _ = cancel.cancelled() => {
                let _ = self.kill(c).await;
                return Err(SandboxError::Cancelled);
            }
        } {
            StartExecResults::Attached { output, .. } => output,
            StartExecResults::Detached => {
                return Err(SandboxError::Io(std::io::Error::other(
                    "exec unexpectedly detached",
                )));
            }
        };
        let deadline = tokio::time::sleep(req.timeout.saturating_sub(started.elapsed()));
        tokio::pin!(deadline);
        let mut timed_out = false;
        loop {
            tokio::select! {
                item = stream.next() => match item {
                    Some(Ok(LogOutput::StdOut { message } | LogOutput::Console { message })) => {
                        output.push(&message);
                        stdout.push(&message);
                    }
                    Some(Ok(LogOutput::StdErr { message })) => output.push(&message),
                    Some(Ok(LogOutput::StdIn { .. })) => {}
                    // A broken stream after the process ended reads as the end.
                    Some(Err(e)) => {
                        tracing::debug!("exec stream ended with {e}");
                        break;
                    }
                    None => break,
                },
                _ = &mut deadline => {
                    timed_out = true;
                    let _ = self.kill(c).await;
                    break;
                }
                _ = cancel.cancelled() => {
                    let _ = self.kill(c).await;
                    return Err(SandboxError::Cancelled);
                }
            }
        }
        drop(stream);
        let exit_code = if timed_out {
            None
        } else {
            self.docker
                .inspect_exec(&exec.id)
                .await
                .map_err(SandboxError::docker("inspect exec"))?
                .exit_code
        };
        Ok(ExecOutcome {
            exit_code,
            timed_out,
            output,
            stdout,
            duration: started.elapsed(),
        })
    }

    async fn spawn_detached(
        &self,
        c: &ContainerId,
        argv: &[String],
        env: &[String],
        user: super::ExecUser,
    ) -> Result<(), SandboxError> {
        let exec = self
            .docker
            .create_exec(
                &c.0,
                ExecConfig {
                    cmd: Some(argv.to_vec()),
                    env: Some(env.to_vec()),
                    working_dir: Some("/".into()),
                    user: Some(user.spec()),
                    attach_stdout: Some(false),
                    attach_stderr: Some(false),
                    attach_stdin: Some(false),
                    tty: Some(false),
                    privileged: Some(false),
                    ..Default::default()
                },
            )
            .await
            .map_err(SandboxError::docker("create detached exec"))?;
        let opts = StartExecOptions {
            detach: true,
            ..Default::default()
        };
        self.docker
            .start_exec(&exec.id, Some(opts))
            .await
            .map_err(SandboxError::docker("start detached exec"))?;
        Ok(())
    }

    async fn attach(
        &self,
        c: &ContainerId,
        argv: &[String],
        env: &[String],
    ) -> Result<AttachedProcess, SandboxError> {
        self.attach_as(c, argv, env, &sandbox_user()).await
    }

    async fn attach_helper(
        &self,
        c: &ContainerId,
        argv: &[String],
    ) -> Result<AttachedProcess, SandboxError> {
        // Root (whom the sandbox user cannot signal) in the sandbox user's group, which
        // reaches the sockets made for that user (see `host_perms`); no capability.
        let user = format!("0:{}", super::SANDBOX_UID);
        self.attach_as(c, argv, &[], &user).await
    }

    async fn copy_out(
        &self,
        c: &ContainerId,
        path: &str,
        into: tokio::sync::mpsc::Sender<bytes::Bytes>,
        limit: u64,
    ) -> Result<(), SandboxError> {
        // Podman (4.3) archives a stopped container's volume as a lone `/` entry: such a
        // container is started again for the copy (its keeper alone: whatever the agent
        // ran died with it) and killed after it.
        let restarted =
            matches!(self.flavor().await?, Flavor::Podman(_)) && !self.is_running(c).await?;
        if restarted {
            self.docker
                .start_container(&c.0, None)
                .await
                .map_err(SandboxError::docker(
                    "start the stopped container to copy out of it",
                ))?;
        }
        let copied = self.download(c, path, into, limit).await;
        if restarted {
            self.kill(c).await?;
        }
        copied
    }

    async fn kill(&self, c: &ContainerId) -> Result<(), SandboxError> {
        let opts = KillContainerOptionsBuilder::default()
            .signal("SIGKILL")
            .build();
        match self.docker.kill_container(&c.0, Some(opts)).await {
            Ok(()) => Ok(()),
            // Already stopped or gone: the goal is reached.
            Err(bollard::errors::Error::DockerResponseServerError {
                status_code: 404 | 409,
                ..
            }) => Ok(()),
            Err(e) => Err(SandboxError::docker("kill container")(e)),
        }
    }

    async fn kill_sandbox_user(
        &self,
        c: &ContainerId,
        cancel: &CancellationToken,
    ) -> Result<bool, SandboxError> {
        // One exec per round (see `reaper`); another round when it could not say all were
        // gone (it was killed itself, or some outlived its second of retries).
        let req = super::reaper::request(super::SANDBOX_UID);
        for _ in 0..REAP_ROUNDS {
            let done = self.exec(c, &req, cancel).await?;
            if done.exit_code == Some(super::reaper::ALL_GONE) {
                return Ok(true);
            }
            if !self.is_running(c).await? {
                return Ok(false);
            }
        }
        Ok(false)
    }

    async fn is_running(&self, c: &ContainerId) -> Result<bool, SandboxError> {
        match self.docker.inspect_container(&c.0, None).await {
            Ok(info) => Ok(info.state.and_then(|s| s.running).unwrap_or(false)),
            Err(e) if is_not_found(&e) => Ok(false),
            Err(e) => Err(SandboxError::docker("inspect container")(e)),
        }
    }

    async fn destroy(&self, c: &ContainerId) -> Result<(), SandboxError> {
        if let Some(remote) = &self.remote {
            remote.end_relay(c);
        }
        let opts = RemoveContainerOptionsBuilder::default()
            .force(true)
            .v(true)
            .build();
        match self.docker.remove_container(&c.0, Some(opts)).await {
            Ok(()) => Ok(()),
            Err(e) if is_not_found(&e) => Ok(()),
            Err(e) => Err(SandboxError::docker("remove container")(e)),
        }
    }

    async fn destroy_volume(&self, v: &VolumeId) -> Result<(), SandboxError> {
        let opts = RemoveVolumeOptionsBuilder::default().force(true).build();
        match self.docker.remove_volume(&v.0, Some(opts)).await {
            Ok(()) => Ok(()),
            Err(e) if is_not_found(&e) => Ok(()),
            Err(e) => Err(SandboxError::docker("remove volume")(e)),
        }
    }

    async fn create_quota(
        &self,
        labels: &Labels,
        mb: u64,
        owner: u32,
        image: &str,
    ) -> Result<super::DiskQuota, SandboxError> {
        match &self.remote {
            Some(_) => super::remote::quota::create(&self.docker, labels, mb, owner, image)
                .await
                .map(super::DiskQuota::Engine),
            None => super::disk_quota::create_on_host(labels, mb, owner).await,
        }
    }

    async fn quota_full(&self, q: &super::DiskQuota) -> Result<bool, SandboxError> {
        match q {
            super::DiskQuota::Host(h) => super::disk_quota::host_full(h).await,
            super::DiskQuota::Engine(e) => super::remote::quota::is_full(&self.docker, e).await,
        }
    }

    async fn remove_quota(&self, q: &super::DiskQuota) -> Result<(), SandboxError> {
        match q {
            super::DiskQuota::Host(h) => super::disk_quota::remove_on_host(h).await,
            super::DiskQuota::Engine(e) => super::remote::quota::remove(&self.docker, e).await,
        }
    }

    async fn sweep(&self, label: &str) -> Result<Swept, SandboxError> {
        let mut swept = Swept::default();
        let opts = ListContainersOptionsBuilder::default()
            .all(true)
            .filters(&label_filter(label))
            .build();
        let list = self
            .docker
            .list_containers(Some(opts))
            .await
            .map_err(SandboxError::docker("list containers"))?;
        for c in list {
            if let Some(id) = c.id {
                self.destroy(&ContainerId(id)).await?;
                swept.containers += 1;
            }
        }
        let opts = ListVolumesOptionsBuilder::default()
            .filters(&label_filter(label))
            .build();
        let vols = self
            .docker
            .list_volumes(Some(opts))
            .await
            .map_err(SandboxError::docker("list volumes"))?;
        for v in vols.volumes.unwrap_or_default() {
            self.destroy_volume(&VolumeId(v.name)).await?;
            swept.volumes += 1;
        }
        // Quotas last: their images were bound into the containers removed above.
        if self.remote.is_some() {
            swept.quotas = super::remote::quota::sweep(&self.docker, label).await?;
            return Ok(swept);
        }
        let root = super::quota::state_root();
        let label = label.to_owned();
        swept.quotas = tokio::task::spawn_blocking(move || super::quota::sweep(&root, &label))
            .await
            .map_err(|e| SandboxError::Io(std::io::Error::other(e)))??;
        Ok(swept)
    }
}

/// A command run in a container: attached output, no stdin, no terminal, never privileged.
fn exec_config(req: &ExecRequest) -> ExecConfig {
    ExecConfig {
        cmd: Some(req.argv.clone()),
        env: Some(req.env.clone()),
        working_dir: Some(req.workdir.clone()),
        user: Some(req.user.spec()),
        attach_stdout: Some(true),
        attach_stderr: Some(true),
        attach_stdin: Some(false),
        tty: Some(false),
        privileged: Some(false),
        ..Default::default()
    }
}
