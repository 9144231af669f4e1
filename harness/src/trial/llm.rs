//! One trial's model gateway: a Unix socket on the host (bind-mounted at /nab/llm.sock), a
//! host folder the agent may write (/nab/out), and the transcript in the trial folder.
//! The API key stays in this process: the provider adds it to upstream requests only.

use crate::task::mib;
use crate::trial::model::ModelSetup;
use nab_gateway::{Gateway, GatewayConfig, GatewayHandle, GatewayLimits, build_provider};
use nab_protocol::EVENTS_FILE;
use nab_protocol::Event;
use std::path::Path;
use std::time::Duration;

/// Largest events.jsonl taken from the agent (it is untrusted output).
pub(crate) const EVENTS_LIMIT: u64 = 16 * 1024 * 1024;
/// Longest events.jsonl line parsed; a longer one is ignored with a note.
pub(crate) const EVENT_LINE_LIMIT: usize = 256 * 1024;
/// Deepest nesting of arrays and objects parsed in an event line.
pub(crate) const EVENT_DEPTH_LIMIT: usize = 32;

pub(crate) struct LlmSession {
    gateway: GatewayHandle,
    /// Holds the socket; enterable by nab's user alone (see `sandbox::host_perms`).
    _socket_dir: tempfile::TempDir,
    out_dir: OutDir,
    /// Why the events a remote engine held could not be copied back (a link, too large):
    /// read as an unreadable events.jsonl (see `out_copy`).
    pub(crate) events_refused: Option<String>,
}

/// /nab/out on the host: a mounted disk quota the trial owns and removes, or (quotas
/// off) a temporary folder removed with the session.
enum OutDir {
    Quota(std::path::PathBuf),
    /// A private folder (0700) and the one inside it the container mounts (0777, for uid
    /// 1000): no other user of this host can reach the latter.
    Temp {
        _private: tempfile::TempDir,
        shared: std::path::PathBuf,
    },
}

impl OutDir {
    fn path(&self) -> &Path {
        match self {
            OutDir::Quota(p) => p,
            OutDir::Temp { shared, .. } => shared,
        }
    }

    fn temporary() -> std::io::Result<OutDir> {
        let private = tempfile::Builder::new().prefix("nab-out-").tempdir()?;
        crate::env::sandbox::host_perms::private_dir(private.path())?;
        let shared = private.path().join("out");
        std::fs::create_dir(&shared)?;
        Ok(OutDir::Temp {
            _private: private,
            shared,
        })
    }
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
pub(crate) struct AgentOutput {
    pub events: Vec<Event>,
    /// Lines of events.jsonl that did not parse (the agent's problem, not the harness's).
    /// A torn last line (no newline: the agent was killed mid-write) is not one of them.
    pub bad_event_lines: Vec<String>,
    /// Why events.jsonl could not be taken: not a regular file, over [`EVENTS_LIMIT`],
    /// unreadable. The agent's failure, never an infrastructure error.
    pub unreadable: Option<String>,
    /// Requests the gateway refused, counted in its memory (the transcript stops
    /// recording refusals past its cap).
    pub refused_requests: u64,
}

fn chmod(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

impl LlmSession {
    /// Starts the gateway for one trial; its transcript is written to the trial folder's
    /// transcript.jsonl. `out_dir` is the host folder for /nab/out (a disk quota's mount
    /// point); without one, a temporary folder.
    pub(crate) async fn start(
        setup: &ModelSetup,
        job: &super::TrialJob,
        out_dir: Option<&Path>,
    ) -> Result<LlmSession, LlmError> {
        let task = &job.task;
        let transcript = &job.dir.join(nab_protocol::TRANSCRIPT_FILE);
        let spec = setup.spec_for(task.id(), job.trial);
        let provider = build_provider(&spec, &setup.provider_options(task))?;
        // Short paths: a Unix socket path has at most 107 bytes.
        let socket_dir = tempfile::Builder::new().prefix("nab-gw-").tempdir()?;
        crate::env::sandbox::host_perms::private_dir(socket_dir.path())?;
        let out_dir = match out_dir {
            Some(p) => OutDir::Quota(p.to_owned()),
            None => OutDir::temporary()?,
        };
        // The agent runs as uid 1000, not as whoever runs nab.
        chmod(out_dir.path(), 0o777)?;
        // A retried attempt starts a fresh transcript.
        match std::fs::remove_file(transcript) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
        let mut cfg = GatewayConfig::new(socket_dir.path().join("llm.sock"), transcript);
        if let Some(b) = task.spec.budgets {
            cfg.budgets = b;
        }
        // The `usd` budget prices calls at the run's rate (`nab run` refuses a task with
        // one when the model has no price).
        cfg.price = setup.price.as_ref().map(|p| p.rate);
        cfg.limits = gateway_limits(task.spec.gateway.as_ref());
        cfg.pace = setup.pace.clone();
        if let Some(n) = setup.max_retries {
            cfg.policy.max_retries = n;
        }
        let gateway = Gateway::start(cfg, provider).await?;
        // Docker mounts the socket itself: inside the container only its own mode counts.
        crate::env::sandbox::host_perms::sandbox_socket(gateway.socket_path())?;
        Ok(LlmSession {
            gateway,
            _socket_dir: socket_dir,
            out_dir,
            events_refused: None,
        })
    }

    pub(crate) fn socket(&self) -> &Path {
        self.gateway.socket_path()
    }

    pub(crate) fn out_dir(&self) -> &Path {
        self.out_dir.path()
    }

    /// How long the trial's calls have been with the provider so far (the part of the agent
    /// phase that is not the agent's own time).
    pub(crate) fn model_clock(&self) -> std::sync::Arc<nab_gateway::ModelClock> {
        self.gateway.model_clock()
    }

    /// Stops the gateway (exchanges in flight finish or are recorded as cut off), copies
    /// events.jsonl into `trial_dir` and parses it, off the async threads. The temporary
    /// folders are removed (a quota's folder is the trial's to remove).
    pub(crate) async fn finish(self, trial_dir: &Path) -> Result<AgentOutput, LlmError> {
        let gateway = self.gateway.shutdown().await;
        let src = self.out_dir.path().join(EVENTS_FILE);
        let dest = trial_dir.join(EVENTS_FILE);
        let mut out = tokio::task::spawn_blocking(move || read_events(&src, &dest))
            .await
            .map_err(|e| LlmError::Io(std::io::Error::other(e)))??;
        if let Some(why) = self.events_refused {
            out.unreadable = Some(format!("{why}; ignored"));
        }
        out.refused_requests = gateway.refused_requests;
        Ok(out)
    }
}

/// The task's `gateway:` options over the gateway's defaults (the loader checked the ranges).
pub(crate) fn gateway_limits(opts: Option<&crate::task::GatewayOptions>) -> GatewayLimits {
    let Some(o) = opts else {
        return GatewayLimits::default();
    };
    let d = GatewayLimits::default();
    let bytes = o.max_request_mb.map_or(d.max_request_bytes, mib);
    let conns = o
        .max_connections
        .map_or(d.max_connections, |n| n.max(1) as usize);
    let mut limits = GatewayLimits::from_sizes(bytes, conns);
    if let Some(s) = o.header_timeout_s {
        limits.header_timeout = Duration::from_secs_f64(s);
    }
    if let Some(s) = o.read_timeout_s {
        limits.read_timeout = Duration::from_secs_f64(s);
    }
    if let Some(mb) = o.transcript_line_mb {
        limits.transcript.line_bytes = mib(mb);
    }
    if let Some(mb) = o.transcript_file_mb {
        limits.transcript.file_bytes = mib(mb);
    }
    limits
}

/// Reads the agent's events.jsonl under the rules of [`crate::env::untrusted`], keeps a copy in
/// the trial folder, and parses each line under a length and nesting limit.
fn read_events(src: &Path, dest: &Path) -> std::io::Result<AgentOutput> {
    let mut out = AgentOutput::default();
    let bytes = match crate::env::untrusted::read_capped(src, EVENTS_LIMIT) {
        Ok(b) => b.unwrap_or_default(),
        Err(why) => {
            out.unreadable = Some(format!("{why}; ignored"));
            return Ok(out);
        }
    };
    std::fs::write(dest, &bytes)?;
    // The bytes are already capped in memory: every line is seen (none is too long for
    // the reader), and the length rule below reports the long ones.
    let read = nab_protocol::for_each_line_in(&bytes[..], src, usize::MAX, |n, l, torn| {
        if l.trim().is_empty() {
            return;
        }
        if l.len() > EVENT_LINE_LIMIT {
            out.bad_event_lines.push(format!(
                "line {n}: {} bytes, more than {EVENT_LINE_LIMIT}",
                l.len()
            ));
            return;
        }
        let depth = crate::env::untrusted::json_depth(l);
        if depth > EVENT_DEPTH_LIMIT {
            out.bad_event_lines.push(format!(
                "line {n}: nested {depth} deep, more than {EVENT_DEPTH_LIMIT}"
            ));
            return;
        }
        match Event::parse_line(l) {
            Ok(e) => out.events.push(e),
            // A torn last line (no newline: the agent was killed mid-write) is not bad.
            Err(_) if torn => {}
            Err(e) => out.bad_event_lines.push(format!("line {n}: {e}")),
        }
    });
    // Reading from memory cannot fail.
    read.map_err(std::io::Error::other)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_that_break_a_rule_are_refused_or_their_lines_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let (src, dest) = (dir.path().join(EVENTS_FILE), dir.path().join("copy"));
        nix::unistd::mkfifo(&src, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        let out = read_events(&src, &dest).unwrap();
        assert!(
            out.unreadable.as_deref().unwrap().contains("FIFO"),
            "{:?}",
            out.unreadable
        );
        assert!(!dest.exists());
        std::fs::remove_file(&src).unwrap();
        let deep = format!("{{\"v\":1,\"x\":{}{}}}", "[".repeat(40), "]".repeat(40));
        let long = format!("{{\"v\":1,\"x\":\"{}\"}}", "a".repeat(EVENT_LINE_LIMIT));
        std::fs::write(&src, format!("{deep}\n{long}\nnot json\n{{\"torn")).unwrap();
        let out = read_events(&src, &dest).unwrap();
        assert_eq!(out.unreadable, None);
        assert_eq!(out.bad_event_lines.len(), 3, "{:?}", out.bad_event_lines);
        assert!(out.bad_event_lines[0].contains("line 1: nested 41 deep"));
        assert!(out.bad_event_lines[1].starts_with("line 2: "));
        assert!(out.bad_event_lines[1].contains("more than"));
        assert!(out.bad_event_lines[2].starts_with("line 3: not JSON"));
        assert!(dest.exists());
    }

    #[test]
    fn the_tasks_gateway_options_override_only_what_they_name() {
        assert_eq!(gateway_limits(None), GatewayLimits::default());
        let l = gateway_limits(Some(&crate::task::GatewayOptions {
            max_request_mb: Some(2.0),
            max_connections: Some(3),
            header_timeout_s: None,
            read_timeout_s: Some(1.5),
            transcript_line_mb: Some(0.5),
            transcript_file_mb: None,
            max_answer_mb: Some(2.0),
        }));
        assert_eq!(l.transcript.line_bytes, 512 << 10);
        assert_eq!(
            l.transcript.file_bytes,
            GatewayLimits::default().transcript.file_bytes
        );
        assert_eq!(l.max_request_bytes, 2 << 20);
        assert_eq!(l.max_parsed_bytes, 8 << 20);
        assert_eq!(l.max_connections, 3);
        assert_eq!(l.header_timeout, GatewayLimits::DEFAULT_HEADER_TIMEOUT);
        assert_eq!(l.read_timeout, Duration::from_millis(1500));
    }
}
