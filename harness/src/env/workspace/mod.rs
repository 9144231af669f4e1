//! Workspace archives. Files go into the sandbox as a tar the harness builds (symlinks
//! stay symlinks), and come out as the tar Docker produces (or, from a disk quota on this
//! machine, the same tar made here: [`host_archive`]), read in memory-bounded pieces.
//! Nothing is ever unpacked on the host, and no link is followed, so a symlink the agent
//! planted can never make the harness read or write a host file.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

mod compiled;
mod diff;
pub(crate) mod host_archive;
mod pick;
mod quote;

pub(crate) use compiled::compiled_kind;
pub(crate) use diff::diff;
pub(crate) use pick::{Picked, Picks};
pub(crate) use quote::git_path;

/// Files above this size are compared by digest only and shown as "large file differs".
const TEXT_LIMIT: u64 = 1024 * 1024;
/// Text kept in memory for one snapshot, all files together; files past it are compared
/// by digest only, like large ones. A workspace of many mid-sized files cannot grow the
/// harness's memory beyond this.
pub(crate) const SNAPSHOT_TEXT_BUDGET: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    Dir,
    File {
        digest: [u8; 32],
        size: u64,
        mode: u32,
        text: Option<String>,
        /// The first bytes (zero-padded): enough to tell compiled code by its magic number.
        head: [u8; 4],
    },
    Symlink(String),
    /// Devices, fifos, hard links: recorded, never read.
    Other(String),
}

/// A workspace's tree, keyed by path relative to its root (`src/app.py`) as raw bytes:
/// names need not be UTF-8, and a lossy conversion could make two of them one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Snapshot {
    pub nodes: BTreeMap<Vec<u8>, Node>,
}

/// Takes a file's text from the budget when it fits.
fn keep_text(size: u64, budget: &mut u64) -> bool {
    let keep = size <= TEXT_LIMIT && size <= *budget;
    if keep {
        *budget -= size;
    }
    keep
}

pub(crate) fn file_node(
    mut r: impl Read,
    size: u64,
    mode: u32,
    keep_text: bool,
) -> std::io::Result<Node> {
    let mut hasher = Sha256::new();
    let mut keep = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let (mut head, mut seen) = ([0u8; 4], 0usize);
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        if seen < head.len() {
            let take = (head.len() - seen).min(n);
            head[seen..seen + take].copy_from_slice(&buf[..take]);
            seen += take;
        }
        hasher.update(&buf[..n]);
        // The header's size is the agent's word; never keep more than it promised.
        if keep_text && keep.len() + n <= size as usize {
            keep.extend_from_slice(&buf[..n]);
        }
    }
    let text = if keep_text && !keep.contains(&0) {
        String::from_utf8(keep).ok()
    } else {
        None
    };
    Ok(Node::File {
        digest: hasher.finalize().into(),
        size,
        mode,
        text,
        head,
    })
}

impl Snapshot {
    /// Reads a host folder without following any symlink.
    pub(crate) fn from_dir(root: &Path) -> std::io::Result<Snapshot> {
        let mut nodes = BTreeMap::new();
        let mut budget = SNAPSHOT_TEXT_BUDGET;
        for entry in entries_under(root) {
            let (entry, rel) = entry?;
            let rel = rel.as_os_str().as_bytes().to_vec();
            let ft = entry.file_type();
            let node = if ft.is_symlink() {
                Node::Symlink(
                    std::fs::read_link(entry.path())?
                        .to_string_lossy()
                        .into_owned(),
                )
            } else if ft.is_dir() {
                Node::Dir
            } else if ft.is_file() {
                use std::os::unix::fs::PermissionsExt;
                let meta = entry.metadata().map_err(std::io::Error::other)?;
                file_node(
                    std::fs::File::open(entry.path())?,
                    meta.len(),
                    meta.permissions().mode(),
                    keep_text(meta.len(), &mut budget),
                )?
            } else {
                Node::Other("special file".into())
            };
            nodes.insert(rel, node);
        }
        Ok(Snapshot { nodes })
    }

    /// Reads a tar of a folder as Docker's archive API returns it (entries start with the
    /// folder's own name, e.g. `workspace/src/app.py`).
    #[cfg(test)]
    pub(crate) fn from_tar(r: impl Read) -> std::io::Result<Snapshot> {
        Snapshot::from_tar_picking(r, &mut Picks::default())
    }

    /// Reads a tar of a folder as Docker's archive API returns it (entries start with the
    /// folder's own name), also keeping the files `picks` wants (see [`Picks`]).
    pub(crate) fn from_tar_picking(r: impl Read, picks: &mut Picks) -> std::io::Result<Snapshot> {
        let mut nodes = BTreeMap::new();
        let mut budget = SNAPSHOT_TEXT_BUDGET;
        let mut archive = tar::Archive::new(r);
        for entry in archive.entries()? {
            let entry = entry?;
            let path = entry.path_bytes().into_owned();
            // Drop the top folder's name; refuse anything that is not a plain relative path.
            let mut parts = path
                .split(|&b| b == b'/')
                .filter(|p| !p.is_empty() && *p != b".");
            parts.next();
            let rest: Vec<&[u8]> = parts.collect();
            if path.starts_with(b"/") || rest.iter().any(|p| *p == b"..") {
                return Err(std::io::Error::other(format!(
                    "unsafe path in archive: {}",
                    git_path("", &path)
                )));
            }
            if rest.is_empty() {
                continue;
            }
            let rel = rest.join(&b'/');
            let header = entry.header();
            let node = match header.entry_type() {
                tar::EntryType::Directory => Node::Dir,
                tar::EntryType::Symlink => Node::Symlink(
                    entry
                        .link_name()?
                        .map(|p| p.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                ),
                tar::EntryType::Regular | tar::EntryType::Continuous => {
                    let size = header.size()?;
                    let mode = header.mode()?;
                    let keep = keep_text(size, &mut budget);
                    if picks.wants(&rel) {
                        file_node(picks.tee(&rel, size, entry), size, mode, keep)?
                    } else {
                        file_node(entry, size, mode, keep)?
                    }
                }
                tar::EntryType::Link => Node::Other(format!(
                    "hard link to {}",
                    git_path("", &entry.link_name_bytes().unwrap_or_default())
                )),
                other => Node::Other(format!("{other:?}")),
            };
            if picks.wants(&rel) {
                match &node {
                    Node::File { .. } => {}
                    Node::Dir => picks.not_regular(&rel, "directory".into()),
                    Node::Symlink(to) => picks.not_regular(&rel, format!("symlink -> {to}")),
                    Node::Other(what) => picks.not_regular(&rel, what.clone()),
                }
            }
            nodes.insert(rel, node);
        }
        Ok(Snapshot { nodes })
    }
}

/// A tar of a host folder for `/workspace`, owned by uid/gid 1000. Symlinks are stored as
/// symlinks; special files are skipped.
pub(crate) fn pack_dir(root: &Path) -> std::io::Result<Vec<u8>> {
    let mut builder = tar::Builder::new(Vec::new());
    builder.follow_symlinks(false);
    for entry in entries_under(root) {
        let (entry, rel) = entry?;
        let meta = std::fs::symlink_metadata(entry.path())?;
        let mut header = tar::Header::new_gnu();
        header.set_metadata(&meta);
        header.set_uid(1000);
        header.set_gid(1000);
        header.set_mtime(meta_mtime(&meta));
        let ft = meta.file_type();
        if ft.is_symlink() {
            let target = std::fs::read_link(entry.path())?;
            header.set_size(0);
            builder.append_link(&mut header, rel, target)?;
        } else if ft.is_dir() {
            header.set_size(0);
            builder.append_data(&mut header, rel, std::io::empty())?;
        } else if ft.is_file() {
            builder.append_data(&mut header, rel, std::fs::File::open(entry.path())?)?;
        }
    }
    builder.into_inner()
}

/// Everything under `root` (not `root` itself), sorted by name, links not followed, each
/// with its path relative to `root`.
fn entries_under(
    root: &Path,
) -> impl Iterator<Item = std::io::Result<(walkdir::DirEntry, std::path::PathBuf)>> + '_ {
    walkdir::WalkDir::new(root)
        .follow_links(false)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        .map(move |entry| {
            let entry = entry.map_err(std::io::Error::other)?;
            let rel = entry
                .path()
                .strip_prefix(root)
                .map_err(std::io::Error::other)?
                .to_path_buf();
            Ok((entry, rel))
        })
}

fn meta_mtime(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.mtime().max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_then_read_round_trips_and_the_diff_shows_edits_and_symlinks_without_following() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.py"), "x = 1\ny = 2\n").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("link")).unwrap();
        let before = Snapshot::from_dir(dir.path()).unwrap();
        // Docker's archive has the folder name in front; emulate it by packing the parent.
        let tar = pack_dir(dir.path()).unwrap();
        let mut prefixed = tar::Builder::new(Vec::new());
        let mut a = tar::Archive::new(&tar[..]);
        for e in a.entries().unwrap() {
            let mut e = e.unwrap();
            let p = Path::new("workspace").join(e.path().unwrap());
            let mut h = e.header().clone();
            if h.entry_type() == tar::EntryType::Symlink {
                let target = e.link_name().unwrap().unwrap().into_owned();
                prefixed.append_link(&mut h, &p, target).unwrap();
            } else {
                prefixed.append_data(&mut h, &p, &mut e).unwrap();
            }
        }
        let round = Snapshot::from_tar(&prefixed.into_inner().unwrap()[..]).unwrap();
        assert_eq!(before, round);
        let mut after = round.clone();
        after.nodes.insert(
            b"src/a.py".to_vec(),
            file_node(&b"x = 1\ny = 3\n"[..], 12, 0o644, true).unwrap(),
        );
        after
            .nodes
            .insert(b"leak".to_vec(), Node::Symlink("/root/secret".into()));
        let d = diff(&before, &after);
        assert!(d.contains("-y = 2\n+y = 3\n"), "{d}");
        assert!(d.contains("+symlink -> /root/secret"), "{d}");
        assert!(!d.contains("link\n+"), "{d}");
    }
}
