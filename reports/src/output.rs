//! Writing one output file of nab-reports, with the crate's error.

use crate::error::{ReportError, Result};
use std::path::Path;

/// Writes beside and renames, so a reader never sees half a report.
pub(crate) fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    nab_protocol::write_atomic(path, contents).map_err(|e| ReportError::Write {
        path: e.path,
        source: e.source,
    })
}
