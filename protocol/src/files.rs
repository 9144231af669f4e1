//! Writing the files of a run folder: one atomic writer (a reader never sees half a file)
//! and one JSON Lines appender (each line fsynced, so a crash loses at most the line being
//! written, which the readers in [`crate::jsonl`] then skip as torn).

use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct WriteError {
    /// The file that was being written.
    pub path: PathBuf,
    /// What the file system said.
    #[source]
    pub source: std::io::Error,
}

fn err(path: &Path) -> impl Fn(std::io::Error) -> WriteError + '_ {
    move |source| WriteError {
        path: path.to_owned(),
        source,
    }
}

/// Writes `bytes` to a temporary file beside `path`, fsyncs it and renames it over `path`.
/// The temporary name is unique per process and call, so two writers never share one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(err(&tmp)(e));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(path)(e)
    })
}

/// Serialises `value` as pretty JSON with a trailing newline and writes it atomically.
pub fn write_json_atomic<T: Serialize + ?Sized>(path: &Path, value: &T) -> Result<(), WriteError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| err(path)(e.into()))?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Writes `records` as JSON Lines, atomically (the whole file is replaced at once).
pub fn write_jsonl_atomic<'a, T: Serialize + 'a>(
    path: &Path,
    records: impl IntoIterator<Item = &'a T>,
) -> Result<(), WriteError> {
    let mut bytes = Vec::new();
    for r in records {
        serde_json::to_writer(&mut bytes, r).map_err(|e| err(path)(e.into()))?;
        bytes.push(b'\n');
    }
    write_atomic(path, &bytes)
}

/// A JSON Lines file opened for appending; every line is written whole and fsynced.
#[derive(Debug)]
pub struct JsonlAppender {
    path: PathBuf,
    file: std::fs::File,
}

impl JsonlAppender {
    /// Opens (creating) `path` for appending.
    pub fn open(path: &Path) -> Result<JsonlAppender, WriteError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err(path))?;
        Ok(JsonlAppender {
            path: path.to_owned(),
            file,
        })
    }

    /// Appends one line: the record and its newline in one write, then fsync.
    pub fn append<T: Serialize + ?Sized>(&mut self, record: &T) -> Result<(), WriteError> {
        let mut line = serde_json::to_vec(record).map_err(|e| err(&self.path)(e.into()))?;
        line.push(b'\n');
        self.file.write_all(&line).map_err(err(&self.path))?;
        self.file.sync_data().map_err(err(&self.path))
    }

    /// The file lines are appended to.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporary_behind() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("results.jsonl");
        std::fs::write(&p, "old\n").unwrap();
        write_jsonl_atomic(
            &p,
            &[serde_json::json!({"a": 1}), serde_json::json!({"a": 2})],
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "{\"a\":1}\n{\"a\":2}\n"
        );
        write_json_atomic(&dir.path().join("run.json"), &serde_json::json!({"v": 1})).unwrap();
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let e = write_atomic(&dir.path().join("no/such/dir/f"), b"x").unwrap_err();
        assert!(e.to_string().starts_with("cannot write "), "{e}");
    }

    #[test]
    fn appended_lines_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        let mut a = JsonlAppender::open(&p).unwrap();
        a.append(&serde_json::json!({"n": 1})).unwrap();
        drop(a);
        JsonlAppender::open(&p)
            .unwrap()
            .append(&serde_json::json!({"n": 2}))
            .unwrap();
        let r = crate::read_jsonl::<serde_json::Value>(&p).unwrap();
        assert_eq!(r.records.len(), 2);
        assert_eq!(r.records[1]["n"], 2);
    }
}
