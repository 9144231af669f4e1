//! Who on the host may reach what a trial keeps there. A gateway socket spends the run's API
//! key, and an MCP socket serves the task's data, so neither may be reachable by another
//! local user: each lives in a folder only nab's user can enter (0700), and when nab runs
//! as root, the socket itself belongs to the sandbox user and its group (0660): the sandbox
//! user connects to it from inside the container, and so does nab's loopback relay, which
//! runs as root in that group (root without capabilities is bound by the mode like anyone).
//! (Not as root, nab cannot give a file away; the private folder is then what keeps other
//! users out.)

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Makes `dir` enterable by nab's user alone.
pub(crate) fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
}

/// Makes the socket at `path` connectable by the sandbox user (and nab itself).
pub(crate) fn sandbox_socket(path: &Path) -> std::io::Result<()> {
    if nix::unistd::geteuid().is_root() {
        let uid = nix::unistd::Uid::from_raw(super::SANDBOX_UID);
        let gid = nix::unistd::Gid::from_raw(super::SANDBOX_UID);
        nix::unistd::chown(path, Some(uid), Some(gid)).map_err(std::io::Error::from)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o660))
    } else {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn sockets_live_in_a_private_folder_and_belong_to_the_sandbox_user_under_root() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        private_dir(dir.path()).unwrap();
        let meta = std::fs::metadata(dir.path()).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o700);
        let sock = dir.path().join("s.sock");
        let _l = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        sandbox_socket(&sock).unwrap();
        let meta = std::fs::metadata(&sock).unwrap();
        if nix::unistd::geteuid().is_root() {
            assert_eq!(
                (meta.uid(), meta.gid(), meta.mode() & 0o777),
                (super::super::SANDBOX_UID, super::super::SANDBOX_UID, 0o660)
            );
        } else {
            assert_eq!(meta.mode() & 0o777, 0o666);
        }
    }
}
