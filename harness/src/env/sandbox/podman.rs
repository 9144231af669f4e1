//! What the Docker backend does differently on Podman's Docker-compatible API (`podman
//! system service`), so that a container there is locked down exactly as on Docker:
//!
//! - tmpfs options: Podman (4.3) refuses `uid=`/`gid=` and, unless told `notmpcopyup`,
//!   copies what the image holds at the mount point into the tmpfs (which would show what
//!   nab mounts over, e.g. the image's /tmp). So a tmpfs is mounted root-owned with
//!   `notmpcopyup`, and [`settle`] gives each its owner and mode once the container runs.
//! - seccomp: Podman's default profile lets anyone make a user namespace; nab's own
//!   (see `seccomp`) does not.
//! - limits: rootless Podman may drop the cgroup limits with only a warning in its log, so
//!   [`settle`] reads them back from inside and refuses a container without them.
//! - errors Podman gives for what its host lacks (its init binary, raising rlimits) name
//!   the fix.

use super::{ContainerId, Lockdown, SandboxError, TmpfsMount};
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

/// `no-new-privileges` everywhere; on Podman also nab's seccomp profile (see
/// [`super::seccomp`]), as Podman's default lets the sandbox user make user namespaces.
pub(super) fn security_opt(flavor: &Flavor) -> Result<Vec<String>, SandboxError> {
    let mut opts = vec!["no-new-privileges:true".to_owned()];
    if let Flavor::Podman(_) = flavor {
        let profile = super::seccomp::podman_profile()
            .map_err(|e| SandboxError::Unsupported(e.to_string()))?;
        opts.push(format!("seccomp={}", profile.display()));
    }
    Ok(opts)
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

/// What [`settle`] runs: gives each tmpfs (`uid:gid mode path` triples in the arguments)
/// its owner and mode, then prints the cgroup limits the container got (v2 or v1 files).
const SETTLE: &str = r#"while [ $# -gt 0 ]; do chown -- "$1" "$3" && chmod -- "$2" "$3" || exit 1; shift 3; done
c=/sys/fs/cgroup
for f in $c/pids.max $c/pids/pids.max; do [ -r $f ] && echo "pids=$(cat $f)"; done
for f in $c/memory.max $c/memory/memory.limit_in_bytes; do [ -r $f ] && echo "memory=$(cat $f)"; done
[ -r $c/cpu.max ] && echo "cpu=$(cat $c/cpu.max)"
[ -r $c/cpu/cpu.cfs_quota_us ] && echo "cpu=$(cat $c/cpu/cpu.cfs_quota_us) $(cat $c/cpu/cpu.cfs_period_us)"
exit 0"#;

/// Readies a container on Podman before anything else runs in it: gives each tmpfs its
/// owner and mode, and checks that the engine applied the pids, memory and CPU limits
/// (rootless Podman on cgroup v1, or without the controllers delegated, drops them with
/// only a warning in its own log). The one command is nab's own (sh, chown, chmod, cat
/// from the image's read-only root, by argv), run as root with the capabilities it needs
/// for this exec only: the container's processes keep none.
pub(super) async fn settle(
    docker: &Docker,
    c: &ContainerId,
    mounts: &[TmpfsMount],
    limits: &Lockdown,
) -> Result<(), SandboxError> {
    let mut cmd = vec![
        "/bin/sh".to_owned(),
        "-c".into(),
        SETTLE.into(),
        "sh".into(),
    ];
    for t in mounts {
        cmd.push(format!("{0}:{0}", t.uid));
        cmd.push(format!("{:o}", t.mode));
        cmd.push(t.path.clone());
    }
    let (code, said) = run_as_root(docker, c, cmd).await?;
    if code != Some(0) {
        return Err(SandboxError::Unsupported(format!(
            "Podman: giving the tmpfs mounts their owners failed (exit {code:?}): {}",
            said.trim()
        )));
    }
    let missing = missing_limits(&said, limits);
    if missing.is_empty() {
        return Ok(());
    }
    Err(SandboxError::Unsupported(format!(
        "this Podman did not apply the container's limits ({}); nab does not run a sandbox with less lockdown. Rootless Podman cannot set cgroup limits on cgroup v1, and on cgroup v2 needs the cpu, memory and pids controllers delegated to the user (systemd: Delegate=cpu memory pids); rootful Podman applies them",
        missing.join("; ")
    )))
}

/// The limits that the cgroup values in `said` (`key=value` lines) do not show.
fn missing_limits(said: &str, limits: &Lockdown) -> Vec<String> {
    let get = |key: &str| {
        said.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .unwrap_or("(absent)")
            .trim()
            .to_owned()
    };
    let mut missing = Vec::new();
    let pids = get("pids");
    if pids != limits.pids.to_string() {
        missing.push(format!("pids.max is {pids}, not {}", limits.pids));
    }
    let memory = get("memory");
    let want = limits.memory_mb * 1024 * 1024;
    if memory != want.to_string() {
        missing.push(format!("the memory limit is {memory}, not {want}"));
    }
    let cpu = get("cpu");
    let share = cpu.split_once(' ').and_then(|(q, p)| {
        let (q, p) = (q.parse::<f64>().ok()?, p.parse::<f64>().ok()?);
        (q > 0.0 && p > 0.0).then_some(q / p)
    });
    if share.is_none_or(|s| (s - limits.cpus).abs() > 0.01) {
        missing.push(format!(
            "the CPU quota is {cpu:?}, not {} CPUs",
            limits.cpus
        ));
    }
    missing
}

/// Runs `cmd` as root with every capability, for this exec only; its exit code and
/// (at most 4 KiB of) its output.
async fn run_as_root(
    docker: &Docker,
    c: &ContainerId,
    cmd: Vec<String>,
) -> Result<(Option<i64>, String), SandboxError> {
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
        .map_err(SandboxError::docker(
            "create the exec that readies the container",
        ))?;
    let mut said = Vec::new();
    if let bollard::exec::StartExecResults::Attached { mut output, .. } = docker
        .start_exec(&exec.id, Some(StartExecOptions::default()))
        .await
        .map_err(SandboxError::docker(
            "start the exec that readies the container",
        ))?
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
        .map_err(SandboxError::docker(
            "inspect the exec that readies the container",
        ))?
        .exit_code;
    Ok((code, String::from_utf8_lossy(&said).into_owned()))
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

    fn lockdown() -> Lockdown {
        Lockdown {
            cpus: 0.5,
            memory_mb: 300,
            pids: 77,
            tmp_mb: 16,
        }
    }

    #[test]
    fn limits_are_read_back_from_cgroup_v1_and_v2() {
        let v2 = "pids=77\nmemory=314572800\ncpu=50000 100000\n";
        assert_eq!(missing_limits(v2, &lockdown()), Vec::<String>::new());
        let v1 = "pids=77\nmemory=314572800\ncpu=25000 50000\n";
        assert_eq!(missing_limits(v1, &lockdown()), Vec::<String>::new());
    }

    #[test]
    fn a_container_without_its_limits_is_named_limit_by_limit() {
        // Rootless Podman on cgroup v1: nothing applied.
        let rootless = "pids=max\nmemory=9223372036854771712\ncpu=-1 100000\n";
        let missing = missing_limits(rootless, &lockdown());
        assert_eq!(missing.len(), 3, "{missing:?}");
        assert!(missing[0].contains("pids.max is max"), "{missing:?}");
        assert!(missing[1].contains("9223372036854771712"), "{missing:?}");
        assert!(missing[2].contains("CPU quota"), "{missing:?}");
        // Files absent altogether (controllers not delegated) count as missing too.
        assert_eq!(missing_limits("", &lockdown()).len(), 3);
        // A larger CPU share is not the limit either.
        let more = "pids=77\nmemory=314572800\ncpu=100000 100000\n";
        assert_eq!(missing_limits(more, &lockdown()).len(), 1);
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
