//! One trial's model gateway: a Unix socket on the host (bind-mounted at /nab/llm.sock), a
//! host folder the agent may write (/nab/out), and the transcript in the trial folder.
//! The API key stays in this process: the provider adds it to upstream requests only.

use crate::model::ModelSetup;
use crate::task::Task;
use nab_gateway::{Budgets, Gateway, GatewayConfig, GatewayHandle, build_provider};
use nab_protocol::events::Event;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest events.jsonl taken from the agent (it is untrusted output).
pub const EVENTS_LIMIT: u64 = 64 * 1024 * 1024;

pub struct LlmSession {
    gateway: GatewayHandle,
    /// Holds the socket; searchable by everyone so uid 1000 can reach it.
    _socket_dir: tempfile::TempDir,
    out_dir: tempfile::TempDir,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LlmError {
    #[error("model gateway: {0}")]
    Provider(#[from] nab_gateway::SpecError),
    #[error("model gateway: {0}")]
    Gateway(#[from] nab_gateway::GatewayError),
    #[error("model gateway folders: {0}")]
    Io(#[from] std::io::Error),
}

/// What the agent left in /nab/out, read after its run.
#[derive(Debug, Default)]
pub struct AgentOutput {
    pub events: Vec<Event>,
    /// Lines of events.jsonl that did not parse (the agent's problem, not the harness's).
    /// A torn last line (no newline: the agent was killed mid-write) is not one of them.
    pub bad_event_lines: Vec<String>,
    /// Why events.jsonl could not be taken: not a regular file, over [`EVENTS_LIMIT`],
    /// unreadable. The agent's failure, never an infrastructure error.
    pub unreadable: Option<String>,
}

fn chmod(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

impl LlmSession {
    /// Starts the gateway for one trial; its transcript is written to `transcript`.
    pub async fn start(
        setup: &ModelSetup,
        task: &Task,
        transcript: &Path,
    ) -> Result<LlmSession, LlmError> {
        let provider = build_provider(&setup.spec, &setup.provider_options(task))?;
        // Short paths: a Unix socket path has at most 107 bytes.
        let socket_dir = tempfile::Builder::new().prefix("nab-gw-").tempdir()?;
        chmod(socket_dir.path(), 0o755)?;
        let out_dir = tempfile::Builder::new().prefix("nab-out-").tempdir()?;
        // The agent runs as uid 1000, not as whoever runs nab.
        chmod(out_dir.path(), 0o777)?;
        // A retried attempt starts a fresh transcript.
        match std::fs::remove_file(transcript) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
        let mut cfg = GatewayConfig::new(socket_dir.path().join("llm.sock"), transcript);
        if let Some(b) = &task.spec.budgets {
            cfg.budgets = Budgets {
                llm_calls: b.llm_calls,
                tokens: b.tokens,
            };
        }
        let gateway = Gateway::start(cfg, provider).await?;
        Ok(LlmSession {
            gateway,
            _socket_dir: socket_dir,
            out_dir,
        })
    }

    pub fn socket(&self) -> &Path {
        self.gateway.socket_path()
    }

    pub fn out_dir(&self) -> &Path {
        self.out_dir.path()
    }

    /// Stops the gateway (exchanges in flight finish or are recorded as cut off), copies
    /// events.jsonl into `trial_dir` and parses it. The temporary folders are removed.
    pub async fn finish(self, trial_dir: &Path) -> Result<AgentOutput, LlmError> {
        self.gateway.shutdown().await;
        let events_dest = trial_dir.join("events.jsonl");
        let mut out = AgentOutput::default();
        let text = match read_untrusted(&self.out_dir.path().join("events.jsonl")) {
            Ok(text) => text,
            Err(e) => {
                out.unreadable = Some(e.to_string());
                String::new()
            }
        };
        std::fs::write(&events_dest, &text)?;
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if l.trim().is_empty() {
                continue;
            }
            match Event::parse_line(l) {
                Ok(e) => out.events.push(e),
                Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
                Err(e) => out.bad_event_lines.push(e),
            }
        }
        Ok(out)
    }
}

/// Reads a file the agent wrote, without following a symlink it may have planted there
/// (which would copy a host file into the run's output). Missing is empty; a symlink, a
/// special file or more than [`EVENTS_LIMIT`] bytes is an error the caller charges to the
/// agent.
fn read_untrusted(path: &PathBuf) -> std::io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(String::new()),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(std::io::Error::other("a symlink, not a file; not followed"));
        }
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(EVENTS_LIMIT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > EVENTS_LIMIT {
        return Err(std::io::Error::other(format!(
            "larger than {EVENTS_LIMIT} bytes"
        )));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
