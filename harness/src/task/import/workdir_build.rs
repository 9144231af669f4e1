//! Runs a Harbor Dockerfile's workspace steps (the `RUN` steps that build files in its
//! working directory, see `dockerfile::sort_runs`) at import, and takes the working
//! directory they leave as the converted task's `workspace/`.
//!
//! Why at import and not when the image is built: nab mounts the task's `workspace/` at
//! `/workspace`, so what an image-time step wrote there would be hidden; and the workspace
//! is the diff's baseline, the judge's evidence and what every trial starts from, so it is
//! built once, kept as files a reader can inspect, and the same for every trial.
//!
//! The Dockerfile is untrusted input. Its steps run only in a throwaway container of the
//! task's packages image (built as `nab validate` builds task images, from the packages
//! alone: set-up commands never run at import, see `image`), with nab's lockdown: no network, read-only root file system,
//! every capability dropped, the sandbox user (uid 1000, not root), memory, processor and
//! process limits, the working directory a disk quota of its own at `/workspace` (the
//! Dockerfile's working directory is rewritten to `/workspace` in the steps, as in every
//! other file of the task), and each step under a deadline. The copies and steps run in the
//! Dockerfile's order; the working directory comes out as an archive read without following
//! anything (`extract`). The container, its volume and its quota are removed however the
//! import ends; a leftover of a killed import carries `nab.role=import` for `nab clean`.

use super::extract;
use crate::env::image::{Recipe, TaskRecipe, ensure_base_image, ensure_task_image, image_exists};
use crate::env::sandbox::{
    ChunkReader, ContainerId, ContainerSpec, DiskQuota, DockerBackend, Engine, ExecRequest,
    ExecUser, Labels, Lockdown, SANDBOX_UID, SandboxBackend, SandboxError, VolumeId, quota,
};
use crate::task::Environment;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The working directory's size limit when task.toml gives no storage.
const DEFAULT_MB: u64 = 256;
/// Never more than this, whatever task.toml says: every trial copies the workspace in.
const MAX_MB: u64 = 1024;
/// Copying the COPY'd files in, or the result out and unpacking it.
const COPY_DEADLINE: Duration = Duration::from_secs(120);
/// Removing the container, its volume or its quota.
const CLEANUP_DEADLINE: Duration = Duration::from_secs(30);
/// Output kept from a step, and the part of it a message shows.
const OUTPUT_CAP: usize = 64 * 1024;
const OUTPUT_SHOWN: usize = 1500;

/// Docker, connected at the first task that has workspace steps (an import without any
/// never needs the engine), with the base image ensured.
pub struct Builder {
    step_timeout: Duration,
    engine: tokio::sync::OnceCell<(Engine, DockerBackend, String)>,
}

/// One step at import, in the Dockerfile's order.
#[derive(Debug)]
pub(super) enum Step {
    /// A COPY into the working directory: a tar of its files, unpacked at `/workspace`.
    Copy { what: String, tar: Vec<u8> },
    /// A workspace step: `/bin/sh -c script` (paths already rewritten) in `/workspace/cwd`.
    Run {
        what: String,
        script: String,
        cwd: String,
    },
}

/// What one task's workspace is built from.
pub(super) struct Job<'a> {
    pub task: &'a str,
    pub env: Environment,
    pub cpus: f64,
    pub memory_mb: i64,
    pub storage_mb: Option<i64>,
    pub steps: Vec<Step>,
    /// An empty folder: the task's `workspace/`.
    pub into: &'a Path,
}

/// What the import made on the engine, removed at the end.
#[derive(Default)]
struct Made {
    quota: Option<DiskQuota>,
    volume: Option<VolumeId>,
    container: Option<ContainerId>,
}

impl Builder {
    pub fn new(step_timeout: Duration) -> Builder {
        Builder {
            step_timeout,
            engine: tokio::sync::OnceCell::new(),
        }
    }

    async fn engine(&self) -> Result<&(Engine, DockerBackend, String), String> {
        self.engine
            .get_or_try_init(|| async {
                let docker = crate::env::sandbox::connect()
                    .await
                    .map_err(|e| e.to_string())?;
                let recipe = Recipe::default();
                let pb = indicatif::ProgressBar::hidden();
                if !image_exists(&docker, &recipe.tag())
                    .await
                    .map_err(|e| e.to_string())?
                {
                    eprintln!(
                        "import: building nab's base image {} (once; takes a few minutes) ...",
                        recipe.tag()
                    );
                }
                let base = ensure_base_image(&docker, &recipe, false, &pb)
                    .await
                    .map_err(|e| e.to_string())?
                    .tag;
                let backend = DockerBackend::new(docker.clone());
                Ok((docker, backend, base))
            })
            .await
    }

    /// Builds `job`'s workspace into `job.into`; `Err` says which step failed and why (or
    /// what of the result was refused).
    pub(super) async fn build(&self, job: Job<'_>) -> Result<(), String> {
        let (docker, backend, base) = self.engine().await?;
        let image = self.image(docker, base, &job).await?;
        let labels = Labels {
            run: format!(
                "import-{}-{:08x}",
                std::process::id(),
                rand::random::<u32>()
            ),
            task: job.task.to_owned(),
            trial: "import".into(),
            role: "import".into(),
        };
        let mb = job
            .storage_mb
            .map_or(DEFAULT_MB, |m| u64::try_from(m).unwrap_or(DEFAULT_MB))
            .clamp(16, MAX_MB);
        let mut made = Made::default();
        let result = self
            .run_steps(backend, &image, &labels, mb, &job, &mut made)
            .await;
        cleanup(backend, made).await;
        result
    }

    /// The task's environment image without its set-up commands (the base image when it
    /// installs no package). Set-up commands are the Dockerfile's other `RUN` text: Docker's
    /// builder runs them as root with a network, so the import never does; they run when
    /// nab builds the task's image, as for every task. Package names are checked names,
    /// installed by nab's own commands.
    async fn image(&self, docker: &Engine, base: &str, job: &Job<'_>) -> Result<String, String> {
        let env = Environment {
            setup: Vec::new(),
            ..job.env.clone()
        };
        if env.apt.is_empty() && env.pip.is_empty() {
            return Ok(base.to_owned());
        }
        let recipe = TaskRecipe::new(base, &env);
        if !image_exists(docker, &recipe.tag())
            .await
            .map_err(|e| e.to_string())?
        {
            eprintln!(
                "import: building the packages image {} of {} ...",
                recipe.tag(),
                job.task
            );
        }
        let pb = indicatif::ProgressBar::hidden();
        ensure_task_image(docker, &recipe, &[job.task.to_owned()], false, &pb)
            .await
            .map(|e| e.tag)
            .map_err(|e| e.to_string())
    }

    async fn run_steps(
        &self,
        backend: &DockerBackend,
        image: &str,
        labels: &Labels,
        mb: u64,
        job: &Job<'_>,
        made: &mut Made,
    ) -> Result<(), String> {
        let infra = |what: &str| {
            let what = what.to_owned();
            move |e: SandboxError| format!("the import container: {what}: {e}")
        };
        if quota::enabled() {
            let q = backend
                .create_quota(labels, mb, SANDBOX_UID, image)
                .await
                .map_err(infra("disk quota"))?;
            made.quota = Some(q);
        }
        let bind = made.quota.as_ref().map(DiskQuota::mount_path);
        let volume = backend
            .create_volume(labels, bind.as_deref())
            .await
            .map_err(infra("volume"))?;
        made.volume = Some(volume.clone());
        let spec = ContainerSpec {
            image: image.to_owned(),
            labels: labels.clone(),
            limits: Lockdown {
                cpus: job.cpus,
                memory_mb: job.memory_mb,
                pids: 256,
                tmp_mb: 256,
            },
            workspace: Some(volume),
            binds: vec![],
            scratch_volumes: vec![],
            tmpfs: vec![],
            env: vec!["HOME=/tmp".into(), "LANG=C.UTF-8".into()],
        };
        let c = backend.create(&spec).await.map_err(infra("create"))?;
        made.container = Some(c.clone());
        for step in &job.steps {
            match step {
                Step::Copy { what, tar } => {
                    let copy = backend.copy_in(&c, "/workspace", tar.clone());
                    match tokio::time::timeout(COPY_DEADLINE, copy).await {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => return Err(format!("{what}: {e}")),
                        Err(_) => {
                            return Err(format!("{what}: copying took over {COPY_DEADLINE:?}"));
                        }
                    }
                }
                Step::Run { what, script, cwd } => {
                    if let Err(e) = self.run_one(backend, &c, what, script, cwd).await {
                        return Err(match &made.quota {
                            Some(q) if backend.quota_full(q).await.unwrap_or(false) => {
                                format!("{e} (the working directory filled its {mb} MiB limit)")
                            }
                            _ => e,
                        });
                    }
                }
            }
        }
        copy_out(backend, &c, mb, job.into).await
    }

    /// One workspace step as the sandbox user, in its folder (made first, as `WORKDIR`
    /// would), under the step deadline.
    async fn run_one(
        &self,
        backend: &DockerBackend,
        c: &ContainerId,
        what: &str,
        script: &str,
        cwd: &str,
    ) -> Result<(), String> {
        let dir = if cwd.is_empty() {
            "/workspace".to_owned()
        } else {
            format!("/workspace/{cwd}")
        };
        let exec = |argv: Vec<String>, workdir: String| ExecRequest {
            argv,
            user: ExecUser::Sandbox,
            env: vec!["HOME=/tmp".into(), "LANG=C.UTF-8".into()],
            workdir,
            timeout: self.step_timeout,
            output_cap: OUTPUT_CAP,
        };
        let cancel = CancellationToken::new();
        if !cwd.is_empty() {
            let mkdir = exec(
                vec!["mkdir".into(), "-p".into(), "--".into(), dir.clone()],
                "/workspace".into(),
            );
            let out = backend
                .exec(c, &mkdir, &cancel)
                .await
                .map_err(|e| format!("{what}: {e}"))?;
            if out.exit_code != Some(0) {
                return Err(format!(
                    "{what}: cannot make its folder {dir}: {}",
                    tail(&out.output.to_text())
                ));
            }
        }
        let argv = vec!["/bin/sh".into(), "-c".into(), script.to_owned()];
        let out = backend
            .exec(c, &exec(argv, dir), &cancel)
            .await
            .map_err(|e| format!("{what}: {e}"))?;
        if out.timed_out {
            return Err(format!(
                "{what} did not finish within {} s (--step-timeout); it was stopped",
                self.step_timeout.as_secs()
            ));
        }
        match out.exit_code {
            Some(0) => Ok(()),
            code => Err(format!(
                "{what} failed in the import container ({}; it runs as uid {SANDBOX_UID} with no network and only the working directory writable): {}",
                code.map_or("killed".to_owned(), |c| format!("exit {c}")),
                tail(&out.output.to_text())
            )),
        }
    }
}

/// The last [`OUTPUT_SHOWN`] characters of a step's output, on one line, without control
/// characters (the step's output goes to the user's terminal).
fn tail(text: &str) -> String {
    let t = text.trim();
    let skip = t.chars().count().saturating_sub(OUTPUT_SHOWN);
    let mut shown = String::new();
    for c in t.chars().skip(skip) {
        match c {
            '\n' => shown.push_str(" | "),
            c if c.is_control() => shown.push('\u{fffd}'),
            c => shown.push(c),
        }
    }
    if shown.is_empty() {
        "no output".to_owned()
    } else {
        shown
    }
}

/// Streams `/workspace` out and unpacks it into `into` on a blocking thread, both under
/// [`COPY_DEADLINE`].
async fn copy_out(
    backend: &DockerBackend,
    c: &ContainerId,
    mb: u64,
    into: &Path,
) -> Result<(), String> {
    let limit = mb * 1024 * 1024;
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    let root: PathBuf = into.to_owned();
    let reader =
        tokio::task::spawn_blocking(move || extract::unpack(ChunkReader::new(rx), &root, limit));
    // The archive has headers besides the files' bytes; the reader counts the bytes.
    let archive_limit = limit * 2 + 1024 * 1024;
    let both = async {
        let copied = backend.copy_out(c, "/workspace", tx, archive_limit).await;
        (copied, reader.await)
    };
    let what = "the working directory the steps built";
    match tokio::time::timeout(COPY_DEADLINE, both).await {
        Err(_) => Err(format!("{what} took over {COPY_DEADLINE:?} to copy out")),
        // The reader's own refusal explains best (it stops reading at the first); a read
        // cut short is the copy's doing, which says why.
        Ok((_, Ok(Err(e)))) if !matches!(e, extract::ExtractError::Io(_)) => {
            Err(format!("{what} {e}"))
        }
        Ok((Err(SandboxError::TooLarge { limit }), _)) => Err(format!(
            "{what} is larger than {limit} bytes as an archive (the import keeps at most {mb} MiB)"
        )),
        Ok((_, Ok(Err(e)))) => Err(format!("{what} {e}")),
        Ok((Err(e), _)) => Err(format!("{what} could not be copied out: {e}")),
        Ok((Ok(()), Err(e))) => Err(format!("{what} could not be read: {e}")),
        Ok((Ok(()), Ok(Ok(())))) => Ok(()),
    }
}

/// Removes the container, the volume and the quota, each under a deadline.
async fn cleanup(backend: &DockerBackend, made: Made) {
    if let Some(c) = made.container {
        match tokio::time::timeout(CLEANUP_DEADLINE, backend.destroy(&c)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("could not remove import container {}: {e}", c.0),
            Err(_) => tracing::warn!("removing import container {} timed out", c.0),
        }
    }
    if let Some(v) = made.volume {
        match tokio::time::timeout(CLEANUP_DEADLINE, backend.destroy_volume(&v)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("could not remove import volume {}: {e}", v.0),
            Err(_) => tracing::warn!("removing import volume {} timed out", v.0),
        }
    }
    if let Some(q) = made.quota {
        match tokio::time::timeout(CLEANUP_DEADLINE, backend.remove_quota(&q)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("removing disk quota {}: {e}", q.describe()),
            Err(_) => tracing::warn!("removing disk quota {} timed out", q.describe()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tail;

    #[test]
    fn a_steps_output_is_shown_on_one_line_without_terminal_controls() {
        assert_eq!(tail("a|b\nb\x1b[2Jc\n"), "a|b | b\u{fffd}[2Jc");
        assert_eq!(tail("  \n"), "no output");
        assert_eq!(tail(&"x".repeat(5000)).len(), super::OUTPUT_SHOWN);
    }
}
