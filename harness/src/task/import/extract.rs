//! Unpacks the working directory an import container built (the tar Docker's archive API
//! returns for `/workspace`) into a fresh host folder. The archive is the Dockerfile's
//! doing, so it is hostile input: only folders, regular files and links that stay inside
//! the folder are taken; paths are checked part by part; links are made only after every
//! file is written (so no write can pass through one); bytes and entries are bounded.
//! Nothing is followed and nothing outside `root` is ever opened.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Entries one working directory may hold.
pub(super) const MAX_ENTRIES: usize = 100_000;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(super) enum ExtractError {
    #[error("holds more than {limit} bytes of files")]
    TooLarge { limit: u64 },
    #[error("holds more than {MAX_ENTRIES} files and folders")]
    TooMany,
    #[error("`{path}` is a symbolic link to {target}, outside the working directory")]
    LinkOut { path: String, target: String },
    #[error("`{path}` is a {kind}; a workspace holds only folders, files and links")]
    Special { path: String, kind: String },
    #[error("holds the unsafe path `{0}`")]
    UnsafePath(String),
    #[error("cannot be read back: {0}")]
    Io(#[from] std::io::Error),
}

/// Unpacks `archive` (entries under one top folder, as Docker names them) into `root`,
/// which must be an empty folder. At most `limit` bytes of file content.
pub(super) fn unpack(archive: impl Read, root: &Path, limit: u64) -> Result<(), ExtractError> {
    let mut tar = tar::Archive::new(archive);
    let mut total = 0u64;
    let mut entries = 0usize;
    let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut linked: BTreeSet<PathBuf> = BTreeSet::new();
    for entry in tar.entries()? {
        let mut entry = entry?;
        entries += 1;
        if entries > MAX_ENTRIES {
            return Err(ExtractError::TooMany);
        }
        let raw = entry.path_bytes().into_owned();
        let shown = String::from_utf8_lossy(&raw).into_owned();
        let Some(rel) = relative(&raw) else {
            return Err(ExtractError::UnsafePath(shown));
        };
        if rel.as_os_str().is_empty() {
            continue;
        }
        let shown = rel.display().to_string();
        // A later entry under a link would be written through it once links exist.
        if rel.ancestors().any(|a| linked.contains(a)) {
            return Err(ExtractError::UnsafePath(shown));
        }
        let target = root.join(&rel);
        let kind = entry.header().entry_type();
        match kind {
            tar::EntryType::Directory => std::fs::create_dir_all(&target)?,
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                // The entry's size, not the header's field: past 8 GiB it is in a PAX record.
                let size = entry.size();
                total = total.saturating_add(size);
                if total > limit {
                    return Err(ExtractError::TooLarge { limit });
                }
                let mode = entry.header().mode().unwrap_or(0o644) & 0o755;
                write_file(&mut entry, &target, size, mode)?;
            }
            tar::EntryType::Symlink => {
                let to = entry
                    .link_name()?
                    .map(|p| p.into_owned())
                    .unwrap_or_default();
                if !stays_inside(&rel, &to) {
                    return Err(ExtractError::LinkOut {
                        path: shown,
                        target: to.display().to_string(),
                    });
                }
                linked.insert(rel.clone());
                links.push((target, to));
            }
            tar::EntryType::Link => {
                return Err(ExtractError::Special {
                    path: shown,
                    kind: "hard link".into(),
                });
            }
            other => {
                return Err(ExtractError::Special {
                    path: shown,
                    kind: format!("{other:?}").to_lowercase(),
                });
            }
        }
    }
    for (at, to) in links {
        if let Some(parent) = at.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::os::unix::fs::symlink(to, at)?;
    }
    Ok(())
}

/// The entry's path without Docker's top folder; `None` for an absolute path or one
/// with `..`.
fn relative(raw: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let path = Path::new(std::ffi::OsStr::from_bytes(raw));
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p),
            Component::CurDir => {}
            Component::RootDir | Component::ParentDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.into_iter().skip(1).collect())
}

/// Whether a link at `rel` pointing at `to` resolves, by its text alone, to a path inside
/// the folder: relative, never climbing above the top.
fn stays_inside(rel: &Path, to: &Path) -> bool {
    if to.is_absolute() || to.as_os_str().is_empty() {
        return false;
    }
    let mut depth = rel.components().count() as i64 - 1;
    for c in to.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    true
}

/// Writes a new file (never one that exists: a name the archive repeats is an error) with
/// at most `size` bytes, the size its header promised.
fn write_file(r: &mut impl Read, target: &Path, size: u64, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(target)?;
    std::io::copy(&mut r.take(size), &mut f)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(build: impl FnOnce(&mut tar::Builder<Vec<u8>>)) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        build(&mut b);
        b.into_inner().unwrap()
    }

    fn file(b: &mut tar::Builder<Vec<u8>>, path: &str, body: &[u8]) {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, path, body).unwrap();
    }

    fn link(b: &mut tar::Builder<Vec<u8>>, path: &str, to: &str) {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(tar::EntryType::Symlink);
        h.set_size(0);
        b.append_link(&mut h, path, to).unwrap();
    }

    #[test]
    fn files_folders_and_inner_links_are_kept() {
        let tar = archive(|b| {
            file(b, "workspace/shop.db", b"SQLite");
            file(b, "workspace/data/a.txt", b"a");
            link(b, "workspace/data/current", "a.txt");
            link(b, "workspace/top", "data/../shop.db");
        });
        let dir = tempfile::tempdir().unwrap();
        unpack(&tar[..], dir.path(), 1024).unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("shop.db")).unwrap(),
            b"SQLite"
        );
        assert_eq!(
            std::fs::read_link(dir.path().join("data/current")).unwrap(),
            Path::new("a.txt")
        );
        assert!(dir.path().join("top").is_symlink());
    }

    #[test]
    fn each_escape_is_refused_and_nothing_outside_is_touched() {
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, "safe").unwrap();
        let victim_s = victim.display().to_string();
        for (tar, why) in [
            (
                archive(|b| link(b, "workspace/passwd", "/etc/passwd")),
                "symbolic link to /etc/passwd",
            ),
            (
                archive(|b| link(b, "workspace/up", "../../x")),
                "outside the working directory",
            ),
            (
                archive(|b| {
                    link(b, "workspace/d", ".");
                    file(b, "workspace/d/x", b"through the link");
                }),
                "unsafe path",
            ),
            (
                archive(|b| link(b, "workspace/v", &victim_s)),
                "outside the working directory",
            ),
            (
                archive(|b| file(b, "workspace/big", &[0; 2048])),
                "more than 1024 bytes",
            ),
            (
                archive(|b| {
                    file(b, "workspace/a", b"1");
                    file(b, "workspace/a", b"2");
                }),
                "exists",
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let e = unpack(&tar[..], dir.path(), 1024).unwrap_err().to_string();
            assert!(e.contains(why), "wanted {why:?}: {e}");
        }
        // Hand-made headers for what the tar crate's builder will not write.
        let mut h = tar::Header::new_gnu();
        h.set_path("workspace/fifo").unwrap();
        h.set_entry_type(tar::EntryType::Fifo);
        h.set_size(0);
        h.set_cksum();
        let tar = archive(|b| b.append(&h, std::io::empty()).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let e = unpack(&tar[..], dir.path(), 1024).unwrap_err().to_string();
        assert!(e.contains("`fifo` is a fifo"), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "safe");
        // Past 8 GiB, Docker's archive gives a file's size in a PAX record and 0 in the
        // header: the record's size is what counts.
        let mut pax = tar::Header::new_ustar();
        pax.set_entry_type(tar::EntryType::XHeader);
        pax.set_size(13);
        pax.set_cksum();
        let mut big = tar::Header::new_ustar();
        big.set_path("workspace/huge").unwrap();
        big.set_size(0);
        big.set_cksum();
        let tar = archive(|b| {
            b.append(&pax, &b"13 size=2048\n"[..]).unwrap();
            b.append(&big, &[0u8; 2048][..]).unwrap();
        });
        let dir = tempfile::tempdir().unwrap();
        let e = unpack(&tar[..], dir.path(), 1024).unwrap_err().to_string();
        assert!(e.contains("more than 1024 bytes"), "{e}");
        assert!(relative(b"/etc/passwd").is_none());
        assert!(relative(b"workspace/../../x").is_none());
    }
}
