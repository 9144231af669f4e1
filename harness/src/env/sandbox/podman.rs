//! What the Docker backend does differently on Podman's Docker-compatible API (`podman
//! system service`), so that a container there is locked down exactly as on Docker:
//!
//! - tmpfs options: Podman (4.3) refuses `uid=`/`gid=` and, unless told `notmpcopyup`,
//!   copies what the image holds at the mount point into the tmpfs (which would show what
//!   nab mounts over, e.g. the image's /tmp). So a tmpfs is mounted root-owned with
//!   `notmpcopyup`, and [`own_tmpfs`] gives each its owner and mode once the container runs.
//! - errors Podman gives for what its host lacks (its init binary, raising rlimits) name
//!   the fix.

use super::{ContainerId, SandboxError, TmpfsMount};
use bollard::Docker;
use bollard::exec::StartExecOptions;
use bollard::models::ExecConfig;
use futures::StreamExt;

/// Which engine serves the Docker API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flavor {
    Docker,
    /// Podman, with its version.
    Podman(String),
}

/// Asks the engine what it is (`GET /version`): Podman names a component "Podman Engine".
pub(super) async fn detect(docker: &Docker) -> Result<Flavor, SandboxError> {
    let v = docker
        .version()
        .await
        .map_err(SandboxError::docker("read the engine version"))?;
    let podman = v
        .components
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.name.to_ascii_lowercase().contains("podman"));
    Ok(match podman {
        Some(c) => Flavor::Podman(c.version),
        None => Flavor::Docker,
    })
}

/// The tmpfs options for `flavor`. Both: size-limited, no set-uid, no devices.
pub(super) fn tmpfs_options(t: &TmpfsMount, flavor: &Flavor) -> String {
    match flavor {
        Flavor::Docker => t.options(),
        Flavor::Podman(_) => format!(
            "rw,nosuid,nodev,exec,size={}m,mode={:o},notmpcopyup",
            t.mb, t.mode
        ),
    }
}

/// Gives each tmpfs its owner and mode on Podman, before anything else runs in the
/// container. The one command that does it is nab's own (chown and chmod from the image's
/// read-only root, by argv), run as root with the capabilities it needs for this exec
/// only: the container's processes keep none, and none of the sandbox user's code has run.
pub(super) async fn own_tmpfs(
    docker: &Docker,
    c: &ContainerId,
    mounts: &[TmpfsMount],
) -> Result<(), SandboxError> {
    let script = "while [ $# -gt 0 ]; do chown -- \"$1\" \"$3\" && chmod -- \"$2\" \"$3\" || exit 1; shift 3; done";
    let mut cmd = vec![
        "/bin/sh".to_owned(),
        "-c".into(),
        script.into(),
        "sh".into(),
    ];
    for t in mounts {
        cmd.push(format!("{0}:{0}", t.uid));
        cmd.push(format!("{:o}", t.mode));
        cmd.push(t.path.clone());
    }
    let exec = docker
        .create_exec(
            &c.0,
            ExecConfig {
                cmd: Some(cmd),
                user: Some("0:0".into()),
                privileged: Some(true),
                attach_stdout: Some(true),
                attach_stderr: Some(true),
                ..Default::default()
            },
        )
        .await
        .map_err(SandboxError::docker("create the tmpfs ownership exec"))?;
    let mut said = Vec::new();
    if let bollard::exec::StartExecResults::Attached { mut output, .. } = docker
        .start_exec(&exec.id, Some(StartExecOptions::default()))
        .await
        .map_err(SandboxError::docker("start the tmpfs ownership exec"))?
    {
        while let Some(Ok(chunk)) = output.next().await {
            if said.len() < 4096 {
                said.extend_from_slice(&chunk.into_bytes());
            }
        }
    }
    let code = docker
        .inspect_exec(&exec.id)
        .await
        .map_err(SandboxError::docker("inspect the tmpfs ownership exec"))?
        .exit_code;
    if code != Some(0) {
        return Err(SandboxError::Unsupported(format!(
            "Podman: giving the tmpfs mounts their owners failed (exit {code:?}): {}",
            String::from_utf8_lossy(&said).trim()
        )));
    }
    Ok(())
}

/// A hint for an error Podman gave when creating or starting a container, when it is one
/// whose cause is the host's setup.
pub(super) fn hint(error: &str) -> Option<&'static str> {
    if error.contains("container-init binary not found") || error.contains("catatonit") {
        return Some(
            "Podman lacks its init binary, which nab needs (every container runs an init that reaps what the agent leaves): install Debian's `catatonit` package",
        );
    }
    if error.contains("error setting rlimit") {
        return Some(
            "Podman could not set the container's rlimits: as root it raises RLIMIT_NOFILE to 1048576 by default, which fails where it lacks CAP_SYS_RESOURCE (inside a container); set limits the host allows in /etc/containers/containers.conf, e.g. [containers] default_ulimits = [\"nofile=20000:20000\", \"nproc=4096:4096\"], and restart `podman system service`",
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn podman_tmpfs_options_carry_no_owner_and_never_copy_the_image_up() {
        let t = TmpfsMount {
            path: "/nab/verify".into(),
            mb: 64,
            uid: 2000,
            mode: 0o700,
        };
        let p = tmpfs_options(&t, &Flavor::Podman("4.3.1".into()));
        assert_eq!(p, "rw,nosuid,nodev,exec,size=64m,mode=700,notmpcopyup");
        let d = tmpfs_options(&t, &Flavor::Docker);
        assert!(d.contains("uid=2000,gid=2000"), "{d}");
        assert!(!d.contains("notmpcopyup"), "{d}");
    }

    #[test]
    fn the_hints_name_the_missing_piece() {
        let init = "container create: container-init binary not found on the host: stat /usr/libexec/podman/catatonit";
        assert!(hint(init).unwrap().contains("catatonit"));
        let rl = "error setting rlimits for ready process: error setting rlimit type 7: operation not permitted";
        assert!(hint(rl).unwrap().contains("default_ulimits"));
        assert_eq!(hint("no such image"), None);
    }
}
