//! Writing an export's tables: every table is encoded in memory and written beside its
//! final name first; only when all of them are on disk are they renamed into place. An
//! export that fails leaves no file of its own behind (and none of a previous export
//! half-replaced by a failed write).

use super::Format;
use crate::error::{ReportError, Result};
use crate::table::values::Columns;
use crate::table::{csv_file, parquet_file};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `<out>/<name>.<ext>` for each table; returns the paths, in order.
pub(crate) fn write_tables(
    out: &Path,
    format: Format,
    tables: &[(&str, Columns)],
) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for (name, columns) in tables {
        let path = out.join(format!("{name}.{}", format.extension()));
        let bytes = encode(format, name, columns).map_err(|message| ReportError::Table {
            path: path.clone(),
            message,
        })?;
        files.push((path, bytes));
    }
    if out.exists() && !out.is_dir() {
        return Err(ReportError::ExportInput {
            path: out.to_owned(),
            message: "--out is not a folder".into(),
        });
    }
    std::fs::create_dir_all(out).map_err(|source| ReportError::Write {
        path: out.to_owned(),
        source,
    })?;
    let mut staged = Vec::new();
    for (path, bytes) in &files {
        match stage(path, bytes) {
            Ok(tmp) => staged.push((tmp, path.clone())),
            Err(e) => {
                discard(&staged);
                return Err(e);
            }
        }
    }
    for (i, (tmp, path)) in staged.iter().enumerate() {
        if let Err(source) = std::fs::rename(tmp, path) {
            discard(&staged[i..]);
            return Err(ReportError::Write {
                path: path.clone(),
                source,
            });
        }
    }
    Ok(files.into_iter().map(|(p, _)| p).collect())
}

fn encode(format: Format, name: &str, columns: &Columns) -> Result<Vec<u8>, String> {
    match format {
        Format::Csv => csv_file::encode(columns).map_err(|e| e.to_string()),
        Format::Parquet => parquet_file::encode(name, columns).map_err(|e| e.to_string()),
        Format::Atif => Err("ATIF is a trajectory format, not a table format".into()),
    }
}

/// Writes `bytes` to a new hidden file beside `path` and flushes it to disk.
fn stage(path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    // A new file only: whatever already has this name is not ours to overwrite or remove.
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|source| ReportError::Write {
            path: tmp.clone(),
            source,
        })?;
    match f.write_all(bytes).and_then(|()| f.sync_all()) {
        Ok(()) => Ok(tmp),
        Err(source) => {
            let _ = std::fs::remove_file(&tmp);
            Err(ReportError::Write { path: tmp, source })
        }
    }
}

/// Removes staged files that will not be renamed (best effort: the error that got here is
/// the one to report).
fn discard(staged: &[(PathBuf, PathBuf)]) {
    for (tmp, _) in staged {
        let _ = std::fs::remove_file(tmp);
    }
}
