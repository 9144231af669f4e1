//! The model gateway at an HTTP base URL inside the agent's container, for agents that
//! take a base URL rather than a Unix socket (most do: the `openai` and `anthropic`
//! clients, litellm, the agents built on them).
//!
//! `nab-relay loopback` listens on the container's own loopback and joins each connection
//! to the gateway's socket at /nab/llm.sock; the container still has no network. It runs
//! as root with no capability, so the sandbox user can neither kill it nor take its port,
//! and it ends when the harness drops its input (or with the container). The agent is
//! given the base URL in the variables the common clients read, and a placeholder key:
//! the real key never leaves the host.

use crate::env::sandbox::{AttachedProcess, BindMount, ContainerId, SandboxBackend, SandboxError};
use std::path::Path;
use std::time::Duration;

/// The port on the container's loopback. The container's network namespace is its own,
/// so any port would do; an unusual one keeps clear of servers a task starts itself.
pub(crate) const PORT: u16 = 47611;
/// Where the relay binary is mounted.
pub(crate) const RELAY_PATH: &str = "/nab/relay/nab-relay";
/// What the agent's clients are given as a key: the gateway ignores it and holds the
/// provider's key on the host.
pub(crate) const PLACEHOLDER_KEY: &str = "nab-gateway-holds-the-key";
/// What the relay says once it listens (nab-relay's `loopback::READY_LINE`; the harness
/// does not link the relay's crate, whose binary is what runs in the container).
const READY_LINE: &[u8] = b"ready\n";
/// How long the relay may take to listen.
const READY_WITHIN: Duration = Duration::from_secs(20);

/// The base URL without a path (`http://127.0.0.1:47611`).
pub(crate) fn base_url() -> String {
    format!("http://127.0.0.1:{PORT}")
}

/// The variables an agent reaching the gateway by loopback gets: nab's own, and those the
/// OpenAI and Anthropic clients (and litellm) read. The OpenAI ones include `/v1`, as
/// those clients expect; the Anthropic client adds it itself.
pub(crate) fn env() -> Vec<String> {
    let base = base_url();
    vec![
        format!("NAB_LLM_BASE_URL={base}"),
        format!("OPENAI_BASE_URL={base}/v1"),
        format!("OPENAI_API_BASE={base}/v1"),
        format!("ANTHROPIC_BASE_URL={base}"),
        format!("OPENAI_API_KEY={PLACEHOLDER_KEY}"),
        format!("ANTHROPIC_API_KEY={PLACEHOLDER_KEY}"),
    ]
}

/// The read-only mount of the host's `nab-relay`.
pub(crate) fn relay_bind(relay: &Path) -> BindMount {
    BindMount {
        host: relay.to_owned(),
        container: RELAY_PATH.to_owned(),
        read_only: true,
        on_engine: false,
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoopbackError {
    #[error("the gateway's loopback relay (nab-relay loopback) did not start: {0}")]
    NotReady(String),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

/// The running relay; dropping it closes its input, which ends it.
pub(crate) struct Loopback {
    _proc: AttachedProcess,
}

/// Starts the relay in `container` and waits until it listens, so the agent's first
/// request finds it at `gateway_socket` (its path in the container). Nothing of the agent
/// has run yet: a failure here is the harness's.
pub(crate) async fn start(
    backend: &dyn SandboxBackend,
    container: &ContainerId,
    gateway_socket: &str,
) -> Result<Loopback, LoopbackError> {
    let argv = [
        RELAY_PATH.to_owned(),
        "loopback".to_owned(),
        format!("127.0.0.1:{PORT}"),
        gateway_socket.to_owned(),
    ];
    let mut proc = backend.attach_helper(container, &argv).await?;
    let ready = tokio::time::timeout(READY_WITHIN, async {
        let mut said = Vec::new();
        while let Some(chunk) = proc.stdout.recv().await {
            said.extend_from_slice(&chunk);
            if said.starts_with(READY_LINE) {
                return Ok(());
            }
            if said.len() > 64 {
                break;
            }
        }
        Err(stderr_of(&mut proc))
    })
    .await
    .map_err(|_| {
        LoopbackError::NotReady(format!("no answer within {} s", READY_WITHIN.as_secs()))
    })?;
    ready.map_err(LoopbackError::NotReady)?;
    Ok(Loopback { _proc: proc })
}

/// What the relay printed on standard error (bounded), for the error.
fn stderr_of(proc: &mut AttachedProcess) -> String {
    let mut text = Vec::new();
    while let Ok(chunk) = proc.stderr.try_recv() {
        let room = 4096usize.saturating_sub(text.len());
        text.extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
    match String::from_utf8_lossy(&text).trim() {
        "" => "it exited".to_owned(),
        t => format!("it exited: {t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clients_variables_point_at_the_loopback_and_hold_no_key() {
        let env = env();
        let get = |k: &str| {
            env.iter()
                .find_map(|v| v.strip_prefix(&format!("{k}=")))
                .unwrap_or_else(|| panic!("{k} missing from {env:?}"))
                .to_owned()
        };
        assert_eq!(get("OPENAI_BASE_URL"), "http://127.0.0.1:47611/v1");
        assert_eq!(get("ANTHROPIC_BASE_URL"), "http://127.0.0.1:47611");
        assert_eq!(get("OPENAI_API_KEY"), PLACEHOLDER_KEY);
        assert_eq!(get("ANTHROPIC_API_KEY"), PLACEHOLDER_KEY);
    }
}
