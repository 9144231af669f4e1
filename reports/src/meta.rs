//! `run.json`: what a run was (agent, model, tasks folder). Written by the runner at the
//! start of `nab run`; every field is optional on read so older or foreign runs still load.

use crate::error::{ReportError, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const RUN_META_FILE: &str = "run.json";
pub const RUN_META_VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    #[serde(default = "v1")]
    pub v: u32,
    #[serde(default)]
    pub run_id: Option<String>,
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    /// The tasks folder of the run; the report reads `<tasks_dir>/<id>/instruction.md`.
    /// Relative paths are taken from the run directory.
    #[serde(default)]
    pub tasks_dir: Option<PathBuf>,
    /// The suite's identity: [`crate::suite::suite_hash`] over `task_ids`, so a copied run
    /// folder can check the tasks it is given (absent in runs before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks_hash: Option<String>,
    /// The tasks the run used, in the order it ran them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub task_ids: Vec<String>,
    /// Trials requested per task.
    #[serde(default)]
    pub trials: Option<u32>,
    #[serde(default)]
    pub started_at: Option<String>,
    #[serde(default)]
    pub finished_at: Option<String>,
    #[serde(default)]
    pub nab_version: Option<String>,
    /// The command line, for the report's header.
    #[serde(default)]
    pub command: Option<String>,
}

fn v1() -> u32 {
    RUN_META_VERSION
}

impl RunMeta {
    /// Reads `<run>/run.json`; a missing file is an empty `RunMeta`.
    pub fn read(run_dir: &Path) -> Result<RunMeta> {
        let path = run_dir.join(RUN_META_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(RunMeta::default()),
            Err(source) => return Err(ReportError::Read { path, source }),
        };
        let meta: RunMeta = serde_json::from_str(&text).map_err(|e| ReportError::Meta {
            path: path.clone(),
            message: e.to_string(),
        })?;
        if meta.v > RUN_META_VERSION {
            return Err(ReportError::Meta {
                path,
                message: format!(
                    "version {} is not supported (this build reads 1..={RUN_META_VERSION}); upgrade nab",
                    meta.v
                ),
            });
        }
        Ok(meta)
    }

    /// Writes `<run>/run.json` (pretty, with a trailing newline).
    pub fn write(&self, run_dir: &Path) -> Result<()> {
        let path = run_dir.join(RUN_META_FILE);
        let mut text = serde_json::to_string_pretty(self).map_err(|e| ReportError::Meta {
            path: path.clone(),
            message: e.to_string(),
        })?;
        text.push('\n');
        std::fs::write(&path, text).map_err(|source| ReportError::Write { path, source })
    }

    /// The tasks folder resolved against the run directory.
    pub fn tasks_dir_in(&self, run_dir: &Path) -> Option<PathBuf> {
        self.tasks_dir.as_ref().map(|t| {
            if t.is_absolute() {
                t.clone()
            } else {
                run_dir.join(t)
            }
        })
    }
}
