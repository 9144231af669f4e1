//! Why a run folder could not be loaded or written: one error for the folder's loader and
//! for `run.json`'s reader and writer, which the loader calls.

use super::layout::LayoutError;
use crate::files::WriteError;
use crate::jsonl::JsonlError;
use std::path::PathBuf;

/// Why a run folder could not be loaded or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunFolderError {
    /// The folder has no `results.jsonl`.
    #[error(
        "{path} is not a run directory: it has no results.jsonl (run `nab run` first, or pass the folder that holds results.jsonl)"
    )]
    NotARun {
        /// The folder given.
        path: PathBuf,
    },
    /// The folder is a sweep's (it holds `sweep.json`), not a run's.
    #[error(
        "{path} is a sweep folder, not a run: rank its runs with `nab leaderboard {path}`, or pass one of the run folders it lists in sweep.json"
    )]
    ASweep {
        /// The folder given.
        path: PathBuf,
    },
    /// `results.jsonl` could not be read.
    #[error("cannot read the results of {path}: {source}")]
    Results {
        /// The run folder.
        path: PathBuf,
        /// What the reader found.
        #[source]
        source: JsonlError,
    },
    /// `run.json` is not JSON this build reads.
    #[error("{path}: invalid run metadata: {message}")]
    Meta {
        /// The `run.json` file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A file of the run could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// A file of the run could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A record names a trial folder outside the run.
    #[error(transparent)]
    Layout(#[from] LayoutError),
}
