//! The task's workspace into a trial's fresh workspace quota, written from the host.
//!
//! A disk quota on this machine is a file system nab has just made and mounted, that no
//! container has mounted yet: nothing of the agent can be in it, so the host can fill it
//! directly, as the engine would have through its archive API (the same archive, owners
//! and modes kept), while the containers are being made. A quota on a remote engine, or
//! no quota, takes the archive through the engine as before.

use std::path::PathBuf;

/// Unpacks `tar` (the workspace's archive, [`crate::env::workspace::pack_dir`]) into
/// `mnt`, keeping its owners (the sandbox user), modes and times. Entries that would land
/// outside `mnt` are refused by the unpacker.
pub(crate) async fn unpack_on_host(mnt: PathBuf, tar: Vec<u8>) -> std::io::Result<()> {
    tokio::task::spawn_blocking(move || {
        let mut archive = tar::Archive::new(tar.as_slice());
        archive.set_preserve_permissions(true);
        archive.set_preserve_ownerships(true);
        archive.set_preserve_mtime(true);
        archive.set_unpack_xattrs(false);
        archive.set_overwrite(false);
        archive.unpack(&mnt)
    })
    .await
    .map_err(std::io::Error::other)?
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    /// As the engine's archive API does: owners from the archive (when nab is root),
    /// modes, symlinks kept as links.
    #[tokio::test]
    async fn the_workspace_lands_with_its_owners_modes_and_links() {
        let src = tempfile::tempdir().unwrap();
        std::fs::create_dir(src.path().join("bin")).unwrap();
        std::fs::write(src.path().join("bin/run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(
            src.path().join("bin/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::fs::write(src.path().join("a.txt"), "a\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", src.path().join("link")).unwrap();
        let tar = crate::env::workspace::pack_dir(src.path()).unwrap();
        let dst = tempfile::tempdir().unwrap();
        unpack_on_host(dst.path().to_owned(), tar).await.unwrap();
        assert_eq!(std::fs::read(dst.path().join("a.txt")).unwrap(), b"a\n");
        let run = std::fs::metadata(dst.path().join("bin/run.sh")).unwrap();
        assert_eq!(run.permissions().mode() & 0o777, 0o755);
        let link = std::fs::symlink_metadata(dst.path().join("link")).unwrap();
        assert!(link.file_type().is_symlink());
        assert_eq!(
            std::fs::read_link(dst.path().join("link")).unwrap(),
            PathBuf::from("/etc/passwd")
        );
        if nix::unistd::geteuid().is_root() {
            assert_eq!((run.uid(), run.gid()), (1000, 1000));
            assert_eq!(link.uid(), 1000);
        }
    }
}
