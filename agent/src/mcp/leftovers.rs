//! A record of the stdio servers this agent started, kept in the state directory.
//!
//! If the agent is killed (timeout, OOM) its servers may outlive it. The next run in the same
//! state directory reads the record and ends every listed process that is still the same one:
//! same PID, same start time, same command line. Anything else with that PID is left alone.

use super::McpError;
use super::proctree;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

pub const FILE_NAME: &str = "mcp-servers.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerRecord {
    pub server: String,
    pub pid: i32,
    /// Clock ticks after boot, from `/proc/<pid>/stat`.
    pub start_time: u64,
    pub cmdline: Vec<String>,
}

#[derive(Debug)]
pub struct Leftovers {
    path: PathBuf,
    lock: Mutex<()>,
}

impl Leftovers {
    pub fn new(state_dir: &Path) -> Leftovers {
        Leftovers {
            path: state_dir.join(FILE_NAME),
            lock: Mutex::new(()),
        }
    }

    fn read(&self) -> Result<Vec<ServerRecord>, McpError> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) if text.trim().is_empty() => Ok(Vec::new()),
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| self.err(format!("not a list of server records: {e}; delete it"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(self.err(format!("cannot read: {e}"))),
        }
    }

    fn write(&self, records: &[ServerRecord]) -> Result<(), McpError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| self.err(format!("cannot create its folder: {e}")))?;
        }
        let text = serde_json::to_string_pretty(records).map_err(|e| self.err(e.to_string()))?;
        nab_protocol::write_atomic(&self.path, text.as_bytes())
            .map_err(|e| self.err(format!("cannot write: {}", e.source)))
    }

    fn err(&self, message: String) -> McpError {
        McpError::State {
            path: self.path.display().to_string(),
            message,
        }
    }

    pub fn record(&self, rec: ServerRecord) -> Result<(), McpError> {
        let _g = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut all = self.read()?;
        all.push(rec);
        self.write(&all)
    }

    pub fn forget(&self, pid: i32, start_time: u64) -> Result<(), McpError> {
        let _g = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut all = self.read()?;
        all.retain(|r| !(r.pid == pid && r.start_time == start_time));
        self.write(&all)
    }

    pub fn records(&self) -> Result<Vec<ServerRecord>, McpError> {
        let _g = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        self.read()
    }

    /// Ends the still-running leftovers of an earlier run (with their trees) and empties the
    /// record. Returns the records that matched a live process.
    pub async fn reap(&self) -> Result<Vec<ServerRecord>, McpError> {
        let stale = self.records()?;
        let mut reaped = Vec::new();
        for rec in stale {
            let Some(now) = proctree::read_stat(rec.pid) else {
                continue;
            };
            let same = now.start_time == rec.start_time
                && proctree::read_cmdline(rec.pid).is_some_and(|c| c == rec.cmdline)
                && proctree::is_alive(&now);
            if !same {
                continue;
            }
            let tree = proctree::snapshot(rec.pid, Some(rec.pid));
            proctree::terminate(tree, Duration::from_secs(2)).await;
            reaped.push(rec);
        }
        let _g = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        self.write(&[])?;
        Ok(reaped)
    }
}
