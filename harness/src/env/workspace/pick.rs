//! Files of the final workspace that host-side checks (`expect_file`) compare, taken from
//! the same archive stream the snapshot is read from, so they are exactly what the agent
//! left when it stopped, before any verify step ran. Only a regular file entry is kept, and
//! only up to a cap: a symlink, a folder, a FIFO or a hard link at the path is recorded as
//! such and never read, and a file over the cap is refused by its header's size before a
//! byte of it is kept.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;

/// What the archive held at a wanted path. A path the archive does not hold (missing, or
/// under a symlinked folder, which the archive keeps as a link) has no entry at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Picked {
    File(Vec<u8>),
    /// Not a regular file: what it is instead (`symlink -> /etc/passwd`, `directory`, ...).
    NotRegular(String),
    TooLarge {
        size: u64,
        cap: u64,
    },
}

/// The workspace-relative paths to keep (`report/summary.csv`) and what was found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Picks {
    wanted: BTreeSet<Vec<u8>>,
    cap: u64,
    pub found: BTreeMap<Vec<u8>, Picked>,
}

impl Picks {
    pub(crate) fn new<'a>(paths: impl IntoIterator<Item = &'a str>, cap: u64) -> Picks {
        Picks {
            wanted: paths.into_iter().map(|p| p.as_bytes().to_vec()).collect(),
            cap,
            found: BTreeMap::new(),
        }
    }

    pub(crate) fn wants(&self, rel: &[u8]) -> bool {
        self.wanted.contains(rel)
    }

    pub(crate) fn get(&self, path: &str) -> Option<&Picked> {
        self.found.get(path.as_bytes())
    }

    /// Records a non-regular entry at a wanted path.
    pub(crate) fn not_regular(&mut self, rel: &[u8], what: String) {
        self.found.insert(rel.to_vec(), Picked::NotRegular(what));
    }

    /// Wraps a regular entry's reader: the bytes are kept as they are read (for the
    /// snapshot's digest), unless the header's size is over the cap.
    pub(crate) fn tee<'r, R: Read>(&'r mut self, rel: &[u8], size: u64, r: R) -> Tee<'r, R> {
        let keep = if size > self.cap {
            self.found.insert(
                rel.to_vec(),
                Picked::TooLarge {
                    size,
                    cap: self.cap,
                },
            );
            None
        } else {
            self.found.insert(
                rel.to_vec(),
                Picked::File(Vec::with_capacity(size as usize)),
            );
            match self.found.get_mut(rel) {
                Some(Picked::File(v)) => Some(v),
                _ => None,
            }
        };
        Tee {
            inner: r,
            keep,
            limit: size,
        }
    }
}

/// A reader that copies what passes through into a buffer, never more than `limit` bytes
/// (the header's size: the agent's word, which the cap already bounds).
pub(crate) struct Tee<'k, R> {
    inner: R,
    keep: Option<&'k mut Vec<u8>>,
    limit: u64,
}

impl<R: Read> Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(keep) = self.keep.as_deref_mut() {
            let room = self.limit.saturating_sub(keep.len() as u64) as usize;
            keep.extend_from_slice(&buf[..n.min(room)]);
        }
        Ok(n)
    }
}
