//! Disk quotas on a remote engine: the same sparse ext4 images as on a local one (see
//! `sandbox::quota`), made on the engine's machine by a short-lived helper container,
//! since nab cannot mount anything there itself.
//!
//! The helper runs the engine's copy of the trial's image as root with `CAP_SYS_ADMIN`,
//! access to loop devices, and the engine's quota folder bound `rshared`, so that the loop
//! mount it makes lands on the engine's machine, where the trial's containers bind it. It
//! is never given anything of the agent's and runs only the fixed scripts below (its
//! arguments are paths and numbers nab chose, passed as argv, never spliced into a
//! shell string). The engine must allow those options (a rootful Docker engine does;
//! the error says what it refused).

use super::super::{Labels, SandboxError};
use crate::env::sandbox::ContainerId;
use bollard::Docker;
use bollard::models::{ContainerCreateBody, HostConfig};
use std::time::Duration;

/// The folder on the engine's machine that holds every quota folder made there.
pub const ENGINE_QUOTA_ROOT: &str = "/var/lib/nab/engine-quota";
/// How long one helper may take (mkfs of a sparse image takes well under a second).
const HELPER_DEADLINE: Duration = Duration::from_secs(60);
/// A quota with less free space than this counts as full (as on a local one).
const FULL_BELOW_KIB: u64 = 1024;

/// One quota on the engine's machine: `<dir>/disk.img` mounted at `<dir>/mnt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineQuota {
    pub(crate) dir: String,
    /// The image the helper runs (one the engine has: the trial's).
    pub(crate) image: String,
}

impl EngineQuota {
    /// The mount point on the engine's machine: bind it into the container.
    pub fn mount_path(&self) -> String {
        format!("{}/mnt", self.dir)
    }
}

/// Makes the image, formats it (owned inside by `owner`) and mounts it.
const CREATE: &str = r#"set -eu
dir=$1; mb=$2; owner=$3
mkdir -p "$dir/mnt"
truncate -s "${mb}M" "$dir/disk.img"
mkfs.ext4 -q -F -m 0 -E "root_owner=$owner:$owner" "$dir/disk.img"
mount -o loop,nosuid,nodev "$dir/disk.img" "$dir/mnt""#;
/// Prints the free KiB and the free inodes of the mount.
const FREE: &str = r#"df -k --output=avail,iavail "$1/mnt" | tail -1"#;
/// Unmounts (if mounted) and deletes every quota folder given, never walking into a
/// mounted one.
const REMOVE: &str = r#"for dir in "$@"; do
  if mountpoint -q "$dir/mnt"; then umount "$dir/mnt" || umount -l "$dir/mnt"; fi
  if mountpoint -q "$dir/mnt"; then echo "still mounted: $dir/mnt" >&2; exit 1; fi
  rm -rf -- "$dir"
  rmdir "$(dirname "$dir")" 2>/dev/null || true
done"#;

fn helper_config(image: &str, argv: Vec<String>) -> ContainerCreateBody {
    let root_bind = format!("{ENGINE_QUOTA_ROOT}:{ENGINE_QUOTA_ROOT}:rshared");
    ContainerCreateBody {
        image: Some(image.to_owned()),
        cmd: Some(argv),
        entrypoint: Some(vec![]),
        user: Some("0:0".into()),
        network_disabled: Some(true),
        labels: Some(std::collections::HashMap::from([(
            "nab.role".to_owned(),
            "quota-helper".to_owned(),
        )])),
        host_config: Some(HostConfig {
            network_mode: Some("none".into()),
            binds: Some(vec![root_bind, "/dev:/dev".into()]),
            cap_drop: Some(vec!["ALL".into()]),
            cap_add: Some(vec!["SYS_ADMIN".into()]),
            // Loop devices (block major 7) and /dev/loop-control.
            device_cgroup_rules: Some(vec!["b 7:* rmw".into(), "c 10:237 rmw".into()]),
            security_opt: Some(vec![
                "seccomp=unconfined".into(),
                "apparmor=unconfined".into(),
            ]),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Runs `script` with `args` in a helper container; returns its standard output, or an
/// error with its output when it fails.
async fn run_helper(
    docker: &Docker,
    image: &str,
    script: &str,
    args: &[String],
) -> Result<String, SandboxError> {
    let mut argv = vec![
        "sh".to_owned(),
        "-c".to_owned(),
        script.to_owned(),
        "sh".to_owned(),
    ];
    argv.extend(args.iter().cloned());
    let created = docker
        .create_container(None, helper_config(image, argv))
        .await
        .map_err(SandboxError::docker(
            "create the disk-quota helper on the engine",
        ))?;
    let id = ContainerId(created.id);
    let outcome = tokio::time::timeout(HELPER_DEADLINE, finish(docker, &id)).await;
    let opts = bollard::query_parameters::RemoveContainerOptionsBuilder::default()
        .force(true)
        .build();
    let _ = docker.remove_container(&id.0, Some(opts)).await;
    match outcome {
        Ok(r) => r,
        Err(_) => Err(SandboxError::Io(std::io::Error::other(format!(
            "the disk-quota helper on the engine took more than {} s",
            HELPER_DEADLINE.as_secs()
        )))),
    }
}

async fn finish(docker: &Docker, id: &ContainerId) -> Result<String, SandboxError> {
    use futures::StreamExt;
    docker
        .start_container(&id.0, None)
        .await
        .map_err(SandboxError::docker(
            "start the disk-quota helper on the engine",
        ))?;
    let mut code = 0;
    let mut waits = docker.wait_container(&id.0, None);
    while let Some(w) = waits.next().await {
        match w {
            Ok(w) => code = w.status_code,
            // bollard reports a non-zero exit as an error carrying the code.
            Err(bollard::errors::Error::DockerContainerWaitError { code: c, .. }) => code = c,
            Err(e) => return Err(SandboxError::docker("wait for the disk-quota helper")(e)),
        }
    }
    let opts = bollard::query_parameters::LogsOptionsBuilder::default()
        .stdout(true)
        .stderr(true)
        .build();
    let mut logs = docker.logs(&id.0, Some(opts));
    let (mut out, mut err) = (String::new(), String::new());
    while let Some(Ok(item)) = logs.next().await {
        match item {
            bollard::container::LogOutput::StdErr { message } => {
                err.push_str(&String::from_utf8_lossy(&message));
            }
            other => out.push_str(&String::from_utf8_lossy(&other.into_bytes())),
        }
    }
    if code != 0 {
        return Err(SandboxError::Io(std::io::Error::other(format!(
            "the disk-quota helper on the engine failed (exit {code}): {}",
            err.trim()
        ))));
    }
    Ok(out)
}

/// A folder name for `labels` under [`ENGINE_QUOTA_ROOT`]: `run-<run>/<task>-<trial>-<role>-<random>`
/// (only characters safe in a path; the run's folder is what `sweep` removes).
fn safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn quota_dir(labels: &Labels, role: &str) -> String {
    format!(
        "{ENGINE_QUOTA_ROOT}/run-{}/{}-{}-{}-{:08x}",
        safe(&labels.run),
        safe(&labels.task),
        safe(&labels.trial),
        safe(role),
        rand::random::<u32>()
    )
}

pub(crate) async fn create(
    docker: &Docker,
    labels: &Labels,
    mb: u64,
    owner: u32,
    image: &str,
) -> Result<EngineQuota, SandboxError> {
    let q = EngineQuota {
        dir: quota_dir(labels, &labels.role),
        image: image.to_owned(),
    };
    let args = [q.dir.clone(), mb.to_string(), owner.to_string()];
    if let Err(e) = run_helper(docker, image, CREATE, &args).await {
        let _ = remove(docker, &q).await;
        return Err(e);
    }
    Ok(q)
}

pub(crate) async fn is_full(docker: &Docker, q: &EngineQuota) -> Result<bool, SandboxError> {
    let out = run_helper(docker, &q.image, FREE, std::slice::from_ref(&q.dir)).await?;
    let mut nums = out.split_whitespace().map(str::parse::<u64>);
    match (nums.next(), nums.next()) {
        (Some(Ok(kib)), Some(Ok(inodes))) => Ok(kib < FULL_BELOW_KIB || inodes == 0),
        _ => Err(SandboxError::Io(std::io::Error::other(format!(
            "the disk-quota helper printed `{}`, not free space",
            out.trim()
        )))),
    }
}

pub(crate) async fn remove(docker: &Docker, q: &EngineQuota) -> Result<(), SandboxError> {
    run_helper(docker, &q.image, REMOVE, std::slice::from_ref(&q.dir))
        .await
        .map(drop)
}

/// Unmounts and deletes the quota folders of the run folder `$2` under `$1` (every run's
/// when `$2` is empty); prints how many.
const SWEEP: &str = r#"n=0
for run in "$1"/run-*; do
  [ -d "$run" ] || continue
  if [ -n "$2" ] && [ "$run" != "$1/$2" ]; then continue; fi
  for dir in "$run"/*; do
    [ -d "$dir" ] || continue
    if mountpoint -q "$dir/mnt"; then umount "$dir/mnt" || umount -l "$dir/mnt"; fi
    if mountpoint -q "$dir/mnt"; then echo "still mounted: $dir/mnt" >&2; exit 1; fi
    rm -rf -- "$dir"; n=$((n + 1))
  done
  rmdir "$run" 2>/dev/null || true
done
echo "$n""#;

/// Removes the engine's quotas of the runs `label` names (`nab.run=<id>`, or `nab.run` for
/// every run); other labels name no quota folder. Returns how many were removed.
pub(crate) async fn sweep(docker: &Docker, label: &str) -> Result<usize, SandboxError> {
    let run = match label.split_once('=') {
        Some(("nab.run", id)) => format!("run-{}", safe(id)),
        None if label == "nab.run" => String::new(),
        _ => return Ok(0),
    };
    // The helper needs an image the engine has; without any nab image there, nothing
    // could have made a quota.
    let Some(image) = any_nab_image(docker).await? else {
        return Ok(0);
    };
    let args = [ENGINE_QUOTA_ROOT.to_owned(), run];
    let out = run_helper(docker, &image, SWEEP, &args).await?;
    Ok(out.trim().parse().unwrap_or(0))
}

/// A tag of the engine's nab images (base or task), if it has any.
async fn any_nab_image(docker: &Docker) -> Result<Option<String>, SandboxError> {
    let images = docker
        .list_images(None::<bollard::query_parameters::ListImagesOptions>)
        .await
        .map_err(SandboxError::docker("list images"))?;
    Ok(images
        .into_iter()
        .flat_map(|i| i.repo_tags)
        .find(|t| t.starts_with("nab-base:") || t.starts_with("nab-task:")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quota_folder_is_the_runs_and_safe_as_a_path() {
        let labels = Labels {
            run: "r1/../x".into(),
            task: "t$(id)".into(),
            trial: "0".into(),
            role: "workspace".into(),
        };
        let d = quota_dir(&labels, "workspace");
        assert!(
            d.starts_with(&format!(
                "{ENGINE_QUOTA_ROOT}/run-r1_.._x/t__id_-0-workspace-"
            )),
            "{d}"
        );
    }
}
