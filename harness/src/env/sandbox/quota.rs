//! Per-trial disk quotas: each place an agent can write to disk (its workspace, /nab/out)
//! is a file system of its own, a sparse ext4 image of the quota's size loop-mounted on
//! the host and bound into the container. A write past the quota fails inside the
//! container with ENOSPC; the host never gives more than the image's size.
//!
//! Each quota lives in a folder of the state directory (`$NAB_STATE_DIR/quota`, default
//! `/var/lib/nab/quota`): `labels.json` (written first, so a crash at any later point
//! leaves a folder `nab clean` can match), `disk.img`, `mnt/`. Removal unmounts and
//! deletes the image: whatever the agent did to permissions inside it (a read-only
//! folder, say) is deleted with the image, never walked.
//!
//! This needs root (mount) and loop devices on the machine that runs Docker (binds are
//! host paths, so that is this machine). `NAB_DISK_QUOTA=off` runs without quotas, with
//! nothing protecting the host's disk.

use super::Labels;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The image's file name in a quota folder.
const IMAGE: &str = "disk.img";
/// The mount point's name in a quota folder.
const MNT: &str = "mnt";
/// The labels' file name in a quota folder.
const LABELS: &str = "labels.json";
/// A quota file system with less free space than this counts as full.
const FULL_BELOW: u64 = 1024 * 1024;
/// Where the tools are looked for, besides `PATH` (sbin is often not on a user's PATH).
const TOOL_DIRS: [&str; 4] = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"];

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QuotaError {
    #[error(
        "disk quotas need {0}; install it (ci/deps.sh), or set NAB_DISK_QUOTA=off to run without quotas (nothing then protects the host's disk)"
    )]
    Missing(String),
    #[error("disk quota {path}: {what}")]
    Failed { path: PathBuf, what: String },
}

fn failed(path: &Path, what: impl Into<String>) -> QuotaError {
    QuotaError::Failed {
        path: path.to_owned(),
        what: what.into(),
    }
}

/// Whether quotas are on (`NAB_DISK_QUOTA=off` turns them off).
pub(crate) fn enabled() -> bool {
    std::env::var("NAB_DISK_QUOTA").map_or(true, |v| v != "off")
}

/// The folder holding every quota folder: `$NAB_STATE_DIR/quota`, default
/// `/var/lib/nab/quota`.
pub(crate) fn state_root() -> PathBuf {
    std::env::var_os("NAB_STATE_DIR")
        .map_or_else(|| PathBuf::from("/var/lib/nab"), PathBuf::from)
        .join("quota")
}

fn tool(name: &str) -> Result<PathBuf, QuotaError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(TOOL_DIRS.iter().map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| QuotaError::Missing(format!("`{name}` (e2fsprogs / util-linux)")))
}

/// Runs argv (no shell), turning a failure into an error that names the command.
fn run(at: &Path, program: &Path, args: &[&std::ffi::OsStr]) -> Result<(), QuotaError> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| failed(at, format!("{}: {e}", program.display())))?;
    if out.status.success() {
        return Ok(());
    }
    Err(failed(
        at,
        format!(
            "{} failed ({}): {}",
            program.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ),
    ))
}

/// One quota: a mounted ext4 image. Dropping it does nothing; call [`QuotaMount::remove`]
/// (the trial does, on every path; `nab clean` sweeps what a killed run left).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaMount {
    dir: PathBuf,
}

impl QuotaMount {
    /// Creates, formats and mounts a `mb` MiB image under `root`, owned inside by `owner`
    /// (the sandbox user), labelled with `labels`. Blocking (it runs mkfs and mount).
    pub fn create(
        root: &Path,
        labels: &Labels,
        mb: u64,
        owner: u32,
    ) -> Result<QuotaMount, QuotaError> {
        if !nix_is_root() {
            return Err(QuotaError::Missing(
                "root (to loop-mount the quota images)".into(),
            ));
        }
        let mkfs = tool("mkfs.ext4")?;
        let mount = tool("mount")?;
        std::fs::create_dir_all(root).map_err(|e| failed(root, e.to_string()))?;
        let role = if labels.role.is_empty() {
            "quota"
        } else {
            &labels.role
        };
        let dir = tempfile::Builder::new()
            .prefix(&format!("{role}-"))
            .tempdir_in(root)
            .map_err(|e| failed(root, e.to_string()))?
            .keep();
        // The image and its mount point: for nab's user alone (the container's user gets
        // the mounted file system's root, which belongs to it).
        super::host_perms::private_dir(&dir).map_err(|e| failed(&dir, e.to_string()))?;
        let q = QuotaMount { dir };
        match q.set_up(labels, mb, owner, &mkfs, &mount) {
            Ok(()) => Ok(q),
            Err(e) => {
                if let Err(e2) = q.remove() {
                    tracing::warn!("{e2}");
                }
                Err(e)
            }
        }
    }

    fn set_up(
        &self,
        labels: &Labels,
        mb: u64,
        owner: u32,
        mkfs: &Path,
        mount: &Path,
    ) -> Result<(), QuotaError> {
        let json =
            serde_json::to_vec(&labels.to_map()).map_err(|e| failed(&self.dir, e.to_string()))?;
        std::fs::write(self.dir.join(LABELS), json)
            .map_err(|e| failed(&self.dir, e.to_string()))?;
        let image = self.dir.join(IMAGE);
        // Sparse: the host gives blocks only as the agent fills them, at most `mb` MiB.
        std::fs::File::create(&image)
            .and_then(|f| f.set_len(mb * 1024 * 1024))
            .map_err(|e| failed(&image, e.to_string()))?;
        // No journal and lazy tables: nothing is written up front (the image is thrown
        // away, crash safety is not needed); no blocks reserved for root, so the agent
        // gets the whole quota; its root folder belongs to the sandbox user.
        let ext = format!("root_owner={owner}:{owner},lazy_itable_init=1,lazy_journal_init=1");
        run(
            &image,
            mkfs,
            &[
                "-q".as_ref(),
                "-F".as_ref(),
                "-m".as_ref(),
                "0".as_ref(),
                "-O".as_ref(),
                "^has_journal".as_ref(),
                "-E".as_ref(),
                ext.as_ref(),
                image.as_os_str(),
            ],
        )?;
        let mnt = self.path();
        std::fs::create_dir(&mnt).map_err(|e| failed(&mnt, e.to_string()))?;
        run(
            &mnt,
            mount,
            &[
                "-t".as_ref(),
                "ext4".as_ref(),
                "-o".as_ref(),
                "loop,nosuid,nodev,noatime,noinit_itable".as_ref(),
                image.as_os_str(),
                mnt.as_os_str(),
            ],
        )?;
        // mkfs leaves a root-only `lost+found` in the file system's root, which is the
        // agent's workspace: it would show in every listing (and change replayed tool
        // output) and break tests that copy the workspace. The image is thrown away after
        // the trial and never checked with e2fsck, so the folder has no use here.
        let lost = mnt.join("lost+found");
        match std::fs::remove_dir(&lost) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(failed(&lost, e.to_string())),
            _ => Ok(()),
        }
    }

    /// The mount point: bind it into the container.
    pub fn path(&self) -> PathBuf {
        self.dir.join(MNT)
    }

    /// The quota's folder in the state directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the agent used the whole quota (less than 1 MiB, or no inode, left).
    pub fn is_full(&self) -> Result<bool, QuotaError> {
        let mnt = self.path();
        let s = nix::sys::statvfs::statvfs(&mnt).map_err(|e| failed(&mnt, e.to_string()))?;
        let free = s.blocks_available() as u64 * s.fragment_size() as u64;
        Ok(free < FULL_BELOW || s.files_available() == 0)
    }

    /// Unmounts and deletes everything of this quota. Blocking. Safe to call again, and
    /// on a quota that was only half set up.
    pub fn remove(&self) -> Result<(), QuotaError> {
        remove_dir(&self.dir)
    }
}

fn nix_is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// Mount points in this mount namespace (the one Docker's daemon uses for binds).
fn is_mounted(path: &Path) -> Result<bool, QuotaError> {
    let info = std::fs::read_to_string("/proc/self/mountinfo")
        .map_err(|e| failed(path, format!("/proc/self/mountinfo: {e}")))?;
    let want = escape_mountinfo(&path.to_string_lossy());
    Ok(info
        .lines()
        .any(|l| l.split(' ').nth(4) == Some(want.as_str())))
}

/// mountinfo writes space, tab, newline and backslash as octal escapes.
fn escape_mountinfo(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for c in p.chars() {
        match c {
            ' ' => s.push_str("\\040"),
            '\t' => s.push_str("\\011"),
            '\n' => s.push_str("\\012"),
            '\\' => s.push_str("\\134"),
            c => s.push(c),
        }
    }
    s
}

fn remove_dir(dir: &Path) -> Result<(), QuotaError> {
    let mnt = dir.join(MNT);
    if is_mounted(&mnt)? {
        let umount = tool("umount")?;
        // A container that still holds the bind keeps a plain unmount busy; a lazy one
        // detaches now, and the loop device goes with the last user.
        if run(&mnt, &umount, &[mnt.as_os_str()]).is_err() {
            run(&mnt, &umount, &["-l".as_ref(), mnt.as_os_str()])?;
        }
    }
    if is_mounted(&mnt)? {
        return Err(failed(&mnt, "is still mounted"));
    }
    // Only our own files are left: the agent's live inside the image.
    for name in [IMAGE, LABELS] {
        match std::fs::remove_file(dir.join(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(failed(&dir.join(name), e.to_string()));
            }
            _ => {}
        }
    }
    for d in [mnt.as_path(), dir] {
        match std::fs::remove_dir(d) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(failed(d, e.to_string()));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a quota folder's labels match `label` (`key` or `key=value`, as Docker's
/// filter). A folder without labels (a crash before they were written) matches only a
/// bare key: `nab clean` without `--run` removes it.
fn matches(labels: Option<&HashMap<String, String>>, label: &str) -> bool {
    match (labels, label.split_once('=')) {
        (Some(l), Some((k, v))) => l.get(k).is_some_and(|x| x == v),
        (Some(l), None) => l.contains_key(label),
        (None, Some(_)) => false,
        (None, None) => true,
    }
}

/// Removes every quota under `root` whose labels match `label`. Blocking. Returns how
/// many were removed.
pub(crate) fn sweep(root: &Path, label: &str) -> Result<usize, QuotaError> {
    let entries = match std::fs::read_dir(root) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(failed(root, e.to_string())),
    };
    let mut removed = 0;
    for entry in entries {
        let dir = entry.map_err(|e| failed(root, e.to_string()))?.path();
        if !dir.is_dir() {
            continue;
        }
        let labels = std::fs::read(dir.join(LABELS))
            .ok()
            .and_then(|b| serde_json::from_slice::<HashMap<String, String>>(&b).ok());
        if matches(labels.as_ref(), label) {
            remove_dir(&dir)?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_match_as_dockers_filter_does() {
        let l = HashMap::from([("nab.run".to_owned(), "r1".to_owned())]);
        assert!(matches(Some(&l), "nab.run"));
        assert!(matches(Some(&l), "nab.run=r1"));
        assert!(!matches(Some(&l), "nab.run=r2"));
        assert!(!matches(Some(&l), "nab.task"));
        assert!(matches(None, "nab.run"));
        assert!(!matches(None, "nab.run=r1"));
    }

    #[test]
    fn mountinfo_escapes_are_applied() {
        assert_eq!(escape_mountinfo("/a b\\c"), "/a\\040b\\134c");
    }

    /// Needs root and loop devices (as the Docker tests do): a write past the quota
    /// fails, and removal leaves nothing, read-only folders inside included.
    #[test]
    fn a_quota_stops_writes_and_is_removed_whole() {
        if !nix_is_root() {
            eprintln!("skipped: needs root");
            return;
        }
        let root = tempfile::tempdir().unwrap();
        let labels = Labels {
            run: "r1".into(),
            role: "workspace".into(),
            ..Default::default()
        };
        let q = QuotaMount::create(root.path(), &labels, 16, 0).unwrap();
        assert!(is_mounted(&q.path()).unwrap());
        // The agent's workspace starts empty: no `lost+found` from mkfs.
        let entries: Vec<_> = std::fs::read_dir(q.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(entries.is_empty(), "{entries:?}");
        assert!(!q.is_full().unwrap());
        let big = vec![7u8; 32 * 1024 * 1024];
        let err = std::fs::write(q.path().join("big"), &big).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOSPC), "{err}");
        assert!(q.is_full().unwrap());
        let ro = q.path().join("ro");
        std::fs::create_dir(&ro).unwrap_or(());
        std::fs::set_permissions(&ro, std::os::unix::fs::PermissionsExt::from_mode(0o555))
            .unwrap_or(());
        // The image on the host is no larger than the quota.
        let img = std::fs::metadata(q.dir().join(IMAGE)).unwrap();
        assert!(
            std::os::unix::fs::MetadataExt::blocks(&img) * 512 <= 16 * 1024 * 1024,
            "{img:?}"
        );
        assert_eq!(sweep(root.path(), "nab.run=r2").unwrap(), 0);
        assert_eq!(sweep(root.path(), "nab.run=r1").unwrap(), 1);
        assert!(!is_mounted(&q.path()).unwrap());
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
        q.remove().unwrap();
    }
}
