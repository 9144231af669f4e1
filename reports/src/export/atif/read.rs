//! Reading a trial's files for its trajectory. They hold what a sandboxed agent produced
//! (its events, the requests it sent), so each is opened without following a link and
//! without blocking (a FIFO would hang the export), must be a regular file under a size
//! cap, and is streamed one line at a time with a cap on the line. A line that does not
//! parse is skipped and reported; a file that breaks a rule fails this trial only.

use std::io::{BufReader, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest transcript.jsonl read (the gateway caps its own well below this).
pub const MAX_TRANSCRIPT_BYTES: u64 = 1 << 30;
/// The largest events.jsonl read (the harness keeps at most 16 MiB of it).
pub const MAX_EVENTS_BYTES: u64 = 64 << 20;
/// The longest events line read; a longer one is skipped.
pub const MAX_EVENT_LINE: usize = 1 << 20;

/// A file of the trial that was refused: the message says what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

/// Opens `path` for reading if it is a regular file of at most `cap` bytes; `None` when
/// it does not exist. The reader stops at `cap` bytes even if the file grows.
pub fn open(path: &Path, cap: u64) -> Result<Option<BufReader<impl Read>>, Refused> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Refused(format!("cannot be inspected: {e}"))),
    };
    check(meta.file_type(), meta.len(), cap)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Refused(format!("cannot be opened: {e}")))?;
    // What was opened, not what the path named a moment before.
    let meta = file
        .metadata()
        .map_err(|e| Refused(format!("cannot be inspected: {e}")))?;
    check(meta.file_type(), meta.len(), cap)?;
    Ok(Some(BufReader::with_capacity(1 << 16, file.take(cap))))
}

fn check(ft: std::fs::FileType, len: u64, cap: u64) -> Result<(), Refused> {
    let kind = if ft.is_symlink() {
        "a symbolic link (not followed)"
    } else if ft.is_dir() {
        "a folder"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() || ft.is_char_device() {
        "a device"
    } else if !ft.is_file() {
        "a special file"
    } else if len > cap {
        return Err(Refused(format!(
            "{len} bytes, more than the {cap}-byte limit for this file"
        )));
    } else {
        return Ok(());
    };
    Err(Refused(format!("{kind}, not a regular file")))
}

/// Calls `f` with each non-blank line of `path` (1-based number, text) up to `max_line`
/// bytes; a longer line is not held, and its number is returned among the skipped. A
/// missing file has no lines.
pub fn each_line(
    path: &Path,
    cap: u64,
    max_line: usize,
    mut f: impl FnMut(usize, &str),
) -> Result<Vec<String>, Refused> {
    let Some(reader) = open(path, cap)? else {
        return Ok(Vec::new());
    };
    let stats = nab_protocol::for_each_line_in(reader, path, max_line, |n, line, _| {
        if !line.trim().is_empty() {
            f(n, line);
        }
    })
    .map_err(|e| Refused(e.to_string()))?;
    let mut skipped = Vec::new();
    if stats.too_long > 0 {
        skipped.push(format!(
            "{}: {} line(s) longer than {max_line} bytes, skipped",
            path.display(),
            stats.too_long
        ));
    }
    Ok(skipped)
}
