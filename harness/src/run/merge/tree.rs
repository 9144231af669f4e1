//! Reading a shard's run folder, which came from another machine and is untrusted: a
//! pod that ran an adversarial agent wrote it. Below the folder the user named, nothing is
//! followed through a link: every step opens one name relative to its parent's descriptor
//! with `O_NOFOLLOW`, so a `trials -> /` link or a `transcript.jsonl -> /etc/shadow` link
//! is refused, not read. Only regular files and folders are taken; FIFOs, sockets and
//! devices are never opened. Every read is capped (per file, in total, in entries and in
//! depth).

use nix::dir::Dir;
use nix::errno::Errno;
use nix::fcntl::{OFlag, openat};
use nix::sys::stat::{Mode, SFlag, fstat, fstatat};
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

/// Caps on what one merge copies.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// One file.
    pub file: u64,
    /// Every file of every shard together.
    pub total: u64,
    /// Files and folders together.
    pub entries: usize,
    /// Folders below a trial folder.
    pub depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            file: 512 << 20,
            total: 64 << 30,
            entries: 1_000_000,
            depth: 16,
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TreeError {
    #[error(
        "{path}: is a symbolic link; a shard folder's contents are never followed through links"
    )]
    Symlink { path: PathBuf },
    #[error("{path}: is a {kind}, not a {want}")]
    Kind {
        path: PathBuf,
        kind: &'static str,
        want: &'static str,
    },
    #[error("{path}: is {size} bytes, more than the {cap}-byte cap")]
    TooLarge { path: PathBuf, size: u64, cap: u64 },
    #[error("{path}: {what} (the merge stops rather than copy an unbounded folder)")]
    Bound { path: PathBuf, what: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl Fn(Errno) -> TreeError + '_ {
    move |e| TreeError::Io {
        path: path.to_owned(),
        source: std::io::Error::from(e),
    }
}

fn kind(mode: u32) -> &'static str {
    match SFlag::from_bits_truncate(mode & SFlag::S_IFMT.bits()) {
        SFlag::S_IFDIR => "folder",
        SFlag::S_IFREG => "regular file",
        SFlag::S_IFLNK => "symbolic link",
        SFlag::S_IFIFO => "FIFO",
        SFlag::S_IFSOCK => "socket",
        SFlag::S_IFCHR | SFlag::S_IFBLK => "device",
        _ => "special file",
    }
}

fn is(mode: u32, want: SFlag) -> bool {
    mode & SFlag::S_IFMT.bits() == want.bits()
}

/// Running totals against [`Limits`].
#[derive(Debug, Default)]
pub struct Budget {
    pub bytes: u64,
    pub entries: usize,
    /// Entries left out (links, special files), one line each.
    pub skipped: Vec<String>,
}

/// A shard folder opened once; every path below it is resolved without links.
#[derive(Debug)]
pub struct Tree {
    root: OwnedFd,
    path: PathBuf,
    limits: Limits,
}

impl Tree {
    /// Opens the folder the user named (this one name may be a link: the user chose it).
    pub fn open(path: &Path, limits: Limits) -> Result<Tree, TreeError> {
        let root = nix::fcntl::open(
            path,
            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            Errno::ENOTDIR => TreeError::Kind {
                path: path.to_owned(),
                kind: "file",
                want: "folder",
            },
            e => io(path)(e),
        })?;
        Ok(Tree {
            root,
            path: path.to_owned(),
            limits,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Opens `name` in `dir` as a folder, not through a link. `Ok(None)`: not there.
    fn open_dir_in(
        &self,
        dir: &impl AsFd,
        name: &str,
        shown: &Path,
    ) -> Result<Option<OwnedFd>, TreeError> {
        let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        match openat(dir, name, flags, Mode::empty()) {
            Ok(fd) => Ok(Some(fd)),
            Err(Errno::ENOENT) => Ok(None),
            Err(Errno::ELOOP) => Err(TreeError::Symlink {
                path: shown.to_owned(),
            }),
            Err(Errno::ENOTDIR) => {
                let st = fstatat(dir, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW)
                    .map_err(io(shown))?;
                Err(if is(st.st_mode, SFlag::S_IFLNK) {
                    TreeError::Symlink {
                        path: shown.to_owned(),
                    }
                } else {
                    TreeError::Kind {
                        path: shown.to_owned(),
                        kind: kind(st.st_mode),
                        want: "folder",
                    }
                })
            }
            Err(e) => Err(io(shown)(e)),
        }
    }

    /// The folder at `rel` (plain names, checked by the caller) below the root.
    pub fn dir(&self, rel: &[&str]) -> Result<Option<OwnedFd>, TreeError> {
        let mut shown = self.path.clone();
        let mut fd = match self.root.try_clone() {
            Ok(f) => f,
            Err(source) => {
                return Err(TreeError::Io {
                    path: shown,
                    source,
                });
            }
        };
        for name in rel {
            shown.push(name);
            match self.open_dir_in(&fd, name, &shown)? {
                Some(next) => fd = next,
                None => return Ok(None),
            }
        }
        Ok(Some(fd))
    }

    /// Opens the regular file `name` in `dir` without following a link or blocking.
    fn open_file_in(
        &self,
        dir: &impl AsFd,
        name: &str,
        shown: &Path,
    ) -> Result<Option<(std::fs::File, u64)>, TreeError> {
        let flags = OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
        // The type first, so a device or FIFO is never opened at all.
        match fstatat(dir, name, nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW) {
            Ok(st) if is(st.st_mode, SFlag::S_IFLNK) => {
                return Err(TreeError::Symlink {
                    path: shown.to_owned(),
                });
            }
            Ok(st) if !is(st.st_mode, SFlag::S_IFREG) => {
                return Err(TreeError::Kind {
                    path: shown.to_owned(),
                    kind: kind(st.st_mode),
                    want: "regular file",
                });
            }
            Ok(_) => {}
            Err(Errno::ENOENT) => return Ok(None),
            Err(e) => return Err(io(shown)(e)),
        }
        let fd = match openat(dir, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::ENOENT) => return Ok(None),
            Err(Errno::ELOOP) => {
                return Err(TreeError::Symlink {
                    path: shown.to_owned(),
                });
            }
            Err(e) => return Err(io(shown)(e)),
        };
        // Checked again on the descriptor: the name may have been swapped in between.
        let st = fstat(&fd).map_err(io(shown))?;
        if !is(st.st_mode, SFlag::S_IFREG) {
            return Err(TreeError::Kind {
                path: shown.to_owned(),
                kind: kind(st.st_mode),
                want: "regular file",
            });
        }
        Ok(Some((std::fs::File::from(fd), st.st_size.max(0) as u64)))
    }

    /// The bytes of the file at `rel`, at most `cap` of them. `Ok(None)`: not there.
    pub fn read(&self, rel: &[&str], cap: u64) -> Result<Option<Vec<u8>>, TreeError> {
        let Some((file_name, folders)) = rel.split_last() else {
            return Ok(None);
        };
        let Some(dir) = self.dir(folders)? else {
            return Ok(None);
        };
        let shown = rel.iter().fold(self.path.clone(), |p, n| p.join(n));
        let Some((file, size)) = self.open_file_in(&dir, file_name, &shown)? else {
            return Ok(None);
        };
        let too_large = |size| TreeError::TooLarge {
            path: shown.clone(),
            size,
            cap,
        };
        if size > cap {
            return Err(too_large(size));
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.take(cap + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| TreeError::Io {
                path: shown.clone(),
                source,
            })?;
        if bytes.len() as u64 > cap {
            return Err(too_large(bytes.len() as u64));
        }
        Ok(Some(bytes))
    }

    /// Copies the folder at `rel` into `dest` (created), regular files and folders only,
    /// in name order. Links and special files are left out and listed in
    /// `budget.skipped`. `Ok(false)`: the folder is not there.
    pub fn copy_dir(
        &self,
        rel: &[&str],
        dest: &Path,
        budget: &mut Budget,
    ) -> Result<bool, TreeError> {
        let Some(fd) = self.dir(rel)? else {
            return Ok(false);
        };
        let shown = rel.iter().fold(self.path.clone(), |p, n| p.join(n));
        self.copy_fd(fd, &shown, dest, 0, budget)?;
        Ok(true)
    }

    /// Copies the open folder `fd` (`shown` in messages) into `dest`, in name order, no
    /// deeper than the limits allow: folders and regular files; links and other kinds are
    /// left out and said in the budget.
    fn copy_fd(
        &self,
        fd: OwnedFd,
        shown: &Path,
        dest: &Path,
        depth: usize,
        budget: &mut Budget,
    ) -> Result<(), TreeError> {
        if depth > self.limits.depth {
            return Err(TreeError::Bound {
                path: shown.to_owned(),
                what: format!("folders nested deeper than {}", self.limits.depth),
            });
        }
        std::fs::create_dir_all(dest).map_err(|source| TreeError::Io {
            path: dest.to_owned(),
            source,
        })?;
        let mut dir = Dir::from_fd(fd).map_err(io(shown))?;
        for name in self.names(&mut dir, shown, budget)? {
            let path = shown.join(&name);
            let st = fstatat(
                &dir,
                name.as_str(),
                nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
            )
            .map_err(io(&path))?;
            if is(st.st_mode, SFlag::S_IFDIR) {
                match self.open_dir_in(&dir, &name, &path) {
                    Ok(Some(sub)) => {
                        self.copy_fd(sub, &path, &dest.join(&name), depth + 1, budget)?
                    }
                    Ok(None) => {}
                    Err(e @ (TreeError::Symlink { .. } | TreeError::Kind { .. })) => {
                        budget.skipped.push(e.to_string())
                    }
                    Err(e) => return Err(e),
                }
            } else if is(st.st_mode, SFlag::S_IFREG) {
                match self.open_file_in(&dir, &name, &path) {
                    Ok(Some((file, _))) => {
                        self.copy_file(file, &path, &dest.join(&name), budget)?
                    }
                    Ok(None) => {}
                    Err(e @ (TreeError::Symlink { .. } | TreeError::Kind { .. })) => {
                        budget.skipped.push(e.to_string())
                    }
                    Err(e) => return Err(e),
                }
            } else {
                budget.skipped.push(format!(
                    "{}: a {}, left out",
                    path.display(),
                    kind(st.st_mode)
                ));
            }
        }
        Ok(())
    }

    /// The names in `dir`, sorted, each counted against the budget's entries; a name that
    /// is not UTF-8 cannot be copied faithfully, and is left out (and said).
    fn names(
        &self,
        dir: &mut Dir,
        shown: &Path,
        budget: &mut Budget,
    ) -> Result<Vec<String>, TreeError> {
        let mut names = Vec::new();
        for entry in dir.iter() {
            let entry = entry.map_err(io(shown))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "." || name == ".." {
                continue;
            }
            budget.entries += 1;
            if budget.entries > self.limits.entries {
                return Err(TreeError::Bound {
                    path: shown.to_owned(),
                    what: format!("more than {} files and folders", self.limits.entries),
                });
            }
            if entry.file_name().to_str().is_err() {
                budget.skipped.push(format!(
                    "{}: a name that is not UTF-8",
                    shown.join(&name).display()
                ));
                continue;
            }
            names.push(name);
        }
        names.sort();
        Ok(names)
    }

    fn copy_file(
        &self,
        file: std::fs::File,
        shown: &Path,
        dest: &Path,
        budget: &mut Budget,
    ) -> Result<(), TreeError> {
        let cap = self.limits.file;
        let left = self.limits.total.saturating_sub(budget.bytes);
        let mut out = std::fs::File::create(dest).map_err(|source| TreeError::Io {
            path: dest.to_owned(),
            source,
        })?;
        // One byte past the smaller cap tells "too large" from "exactly at the cap".
        let n = std::io::copy(&mut file.take(cap.min(left) + 1), &mut out).map_err(|source| {
            TreeError::Io {
                path: shown.to_owned(),
                source,
            }
        })?;
        if n > cap {
            return Err(TreeError::TooLarge {
                path: shown.to_owned(),
                size: n,
                cap,
            });
        }
        if n > left {
            return Err(TreeError::Bound {
                path: shown.to_owned(),
                what: format!(
                    "the shards hold more than {} bytes in all",
                    self.limits.total
                ),
            });
        }
        budget.bytes += n;
        out.flush().map_err(|source| TreeError::Io {
            path: dest.to_owned(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn write(p: &Path, s: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    #[test]
    fn links_anywhere_below_the_root_are_refused_or_left_out() {
        let root = tempfile::tempdir().unwrap();
        let secret = root.path().join("secret");
        write(&secret, "host secret");
        let shard = root.path().join("shard");
        write(&shard.join("trials/t/0/diff.patch"), "diff");
        write(&shard.join("trials/t/0/sub/deep.txt"), "deep");
        symlink(&secret, shard.join("trials/t/0/transcript.jsonl")).unwrap();
        symlink(root.path(), shard.join("trials/t/0/up")).unwrap();
        nix::unistd::mkfifo(
            &shard.join("trials/t/0/fifo"),
            Mode::from_bits_truncate(0o644),
        )
        .unwrap();
        symlink(&secret, shard.join(nab_protocol::RUN_META_FILE)).unwrap();
        symlink(root.path(), shard.join("trials/u")).unwrap();

        let tree = Tree::open(&shard, Limits::default()).unwrap();
        let e = tree
            .read(&[nab_protocol::RUN_META_FILE], 1 << 20)
            .unwrap_err();
        assert!(matches!(e, TreeError::Symlink { .. }), "{e}");
        assert!(tree.read(&["absent.json"], 10).unwrap().is_none());
        // A linked folder on the way to a file is refused too.
        let e = tree.read(&["trials", "u", "secret"], 1 << 20).unwrap_err();
        assert!(matches!(e, TreeError::Symlink { .. }), "{e}");
        let e = tree.copy_dir(&["trials", "u"], root.path(), &mut Budget::default());
        assert!(matches!(e, Err(TreeError::Symlink { .. })), "{e:?}");

        let dest = root.path().join("out");
        let mut budget = Budget::default();
        assert!(
            tree.copy_dir(&["trials", "t", "0"], &dest, &mut budget)
                .unwrap()
        );
        assert_eq!(
            std::fs::read_to_string(dest.join(nab_protocol::DIFF_FILE)).unwrap(),
            "diff"
        );
        assert_eq!(
            std::fs::read_to_string(dest.join("sub/deep.txt")).unwrap(),
            "deep"
        );
        for gone in [nab_protocol::TRANSCRIPT_FILE, "up", "fifo"] {
            assert!(
                std::fs::symlink_metadata(dest.join(gone)).is_err(),
                "{gone} copied"
            );
        }
        assert_eq!(budget.skipped.len(), 3, "{:?}", budget.skipped);
        assert_eq!(budget.bytes, 8);
        assert!(!tree.copy_dir(&["trials", "x"], &dest, &mut budget).unwrap());
    }

    #[test]
    fn every_read_is_bounded() {
        let root = tempfile::tempdir().unwrap();
        let shard = root.path().join("shard");
        write(&shard.join("big"), &"x".repeat(100));
        write(&shard.join("t/a"), &"a".repeat(60));
        write(&shard.join("t/b"), &"b".repeat(60));
        let tree = Tree::open(&shard, Limits::default()).unwrap();
        assert_eq!(tree.read(&["big"], 100).unwrap().unwrap().len(), 100);
        let e = tree.read(&["big"], 99).unwrap_err();
        assert!(
            matches!(
                e,
                TreeError::TooLarge {
                    size: 100,
                    cap: 99,
                    ..
                }
            ),
            "{e}"
        );

        let small = |l: Limits| Tree::open(&shard, l).unwrap();
        let dest = root.path().join("o1");
        let e = small(Limits {
            file: 50,
            ..Limits::default()
        })
        .copy_dir(&["t"], &dest, &mut Budget::default())
        .unwrap_err();
        assert!(matches!(e, TreeError::TooLarge { .. }), "{e}");
        let e = small(Limits {
            total: 100,
            ..Limits::default()
        })
        .copy_dir(&["t"], &root.path().join("o2"), &mut Budget::default())
        .unwrap_err();
        assert!(e.to_string().contains("more than 100 bytes"), "{e}");
        let e = small(Limits {
            entries: 1,
            ..Limits::default()
        })
        .copy_dir(&["t"], &root.path().join("o3"), &mut Budget::default())
        .unwrap_err();
        assert!(e.to_string().contains("more than 1 files"), "{e}");

        let mut deep = shard.join("d");
        for _ in 0..5 {
            deep.push("x");
        }
        std::fs::create_dir_all(&deep).unwrap();
        let e = small(Limits {
            depth: 3,
            ..Limits::default()
        })
        .copy_dir(&["d"], &root.path().join("o4"), &mut Budget::default())
        .unwrap_err();
        assert!(e.to_string().contains("deeper than 3"), "{e}");

        let e = Tree::open(&shard.join("big"), Limits::default()).unwrap_err();
        assert!(e.to_string().contains("not a folder"), "{e}");
    }
}
