//! `ssh://[user@]host[:port]` engines, by Docker's own convention: each connection to the
//! engine is `ssh [-l user] [-p port] -- host docker system dial-stdio`, whose standard
//! input and output are the engine's API. nab listens on a Unix socket of its own (in a
//! private temporary folder) and starts one such ssh per connection, so the Docker client
//! speaks to it as to a local socket.
//!
//! `ssh` is the program on `PATH`, or `$NAB_SSH` (a wrapper that adds options, say); it
//! runs with `BatchMode=yes`, so a missing key fails at once instead of asking for a
//! password. The user's ssh configuration (keys, `ProxyJump`, known hosts) applies.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::net::UnixListener;
use tokio::process::Command;

/// How long the first ssh (the check that the engine answers) may take.
const CHECK_WITHIN: Duration = Duration::from_secs(60);

/// Where an `ssh://` engine is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SshTarget {
    pub user: Option<String>,
    pub host: String,
    pub port: Option<u16>,
}

impl SshTarget {
    /// `ssh`'s arguments up to the remote command.
    fn args(&self) -> Vec<String> {
        let mut args = vec!["-o".to_owned(), "BatchMode=yes".to_owned()];
        if let Some(u) = &self.user {
            args.extend(["-l".to_owned(), u.clone()]);
        }
        if let Some(p) = self.port {
            args.extend(["-p".to_owned(), p.to_string()]);
        }
        args.extend(["--".to_owned(), self.host.clone()]);
        args
    }

    fn command(&self, remote: &[&str]) -> Command {
        let ssh = std::env::var_os("NAB_SSH").unwrap_or_else(|| "ssh".into());
        let mut c = Command::new(ssh);
        c.args(self.args()).args(remote).kill_on_drop(true);
        c
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SshError {
    #[error("cannot start ssh: {0}")]
    Spawn(std::io::Error),
    #[error("`ssh {target} docker version` failed: {why}")]
    Check { target: String, why: String },
    #[error("cannot listen for the ssh bridge: {0}")]
    Listen(std::io::Error),
}

impl std::fmt::Display for SshTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ssh://")?;
        if let Some(u) = &self.user {
            write!(f, "{u}@")?;
        }
        f.write_str(&self.host)?;
        if let Some(p) = self.port {
            write!(f, ":{p}")?;
        }
        Ok(())
    }
}

/// Checks that the engine answers over ssh (a clear error when ssh or docker there fails),
/// then starts the bridge; returns the Unix socket the Docker client connects to.
pub async fn bridge(target: &SshTarget) -> Result<PathBuf, SshError> {
    check(target).await?;
    let dir = tempfile::Builder::new()
        .prefix("nab-ssh-")
        .tempdir()
        .map_err(SshError::Listen)?;
    let socket = dir.path().join("docker.sock");
    let listener = UnixListener::bind(&socket).map_err(SshError::Listen)?;
    let target = target.clone();
    tokio::spawn(async move {
        // The folder lives as long as the bridge, which lives as long as nab.
        let _dir = dir;
        while let Ok((stream, _)) = listener.accept().await {
            let target = target.clone();
            tokio::spawn(async move { carry(&target, stream).await });
        }
    });
    Ok(socket)
}

async fn check(target: &SshTarget) -> Result<(), SshError> {
    let mut c = target.command(&["docker", "version", "--format", "{{.Server.Version}}"]);
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let failed = |why: String| SshError::Check {
        target: target.to_string(),
        why,
    };
    let out = tokio::time::timeout(CHECK_WITHIN, c.output())
        .await
        .map_err(|_| failed(format!("no answer within {} s", CHECK_WITHIN.as_secs())))?
        .map_err(SshError::Spawn)?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let err: String = err.trim().chars().take(400).collect();
    Err(failed(format!("{} ({err})", out.status)))
}

/// One connection: its bytes to a fresh `docker system dial-stdio` over ssh and back.
async fn carry(target: &SshTarget, stream: tokio::net::UnixStream) {
    let mut c = target.command(&["docker", "system", "dial-stdio"]);
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let Ok(mut child) = c.spawn() else { return };
    let (Some(mut to_ssh), Some(mut from_ssh)) = (child.stdin.take(), child.stdout.take()) else {
        return;
    };
    let (mut read, mut write) = stream.into_split();
    let up = async {
        let _ = tokio::io::copy(&mut read, &mut to_ssh).await;
        drop(to_ssh);
    };
    // Each side's end is passed on (an exec's hijacked stream ends when its process does).
    let down = async {
        let _ = tokio::io::copy(&mut from_ssh, &mut write).await;
        let _ = tokio::io::AsyncWriteExt::shutdown(&mut write).await;
    };
    tokio::join!(up, down);
    let _ = child.kill().await;
}
