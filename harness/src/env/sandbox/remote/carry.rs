//! What a remote engine cannot bind-mount, carried another way: host files and folders
//! become one tar archive copied into the container's `/nab` (a scratch volume), and the
//! host's Unix sockets among them become listeners of `nab-relay` in the container.
//!
//! Every bind the harness makes lies under `/nab`, so one archive and one volume hold them
//! all. The host paths are the harness's own (task files, the agent binary, the gateway's
//! socket), not the agent's; links inside them are copied as links, never followed.

use super::super::{BindMount, SANDBOX_UID};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The folder every carried bind lands in (a scratch volume of the container).
pub(crate) const ROOT: &str = "/nab";
/// Where the relay binary is put, under [`ROOT`].
pub(crate) const RELAY_PATH: &str = ".relay/nab-relay";

/// A socket to relay: where the relay listens in the container, and where the harness
/// connects on its own machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RelayedSocket {
    pub container: String,
    pub host: PathBuf,
}

/// The archive for [`ROOT`] and the sockets to relay.
#[derive(Debug, Default)]
pub(crate) struct Carried {
    /// A tar archive, paths relative to [`ROOT`]; empty when there was nothing to carry.
    pub tar: Vec<u8>,
    pub sockets: Vec<RelayedSocket>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CarryError {
    #[error("a remote engine gets host files copied under {ROOT}; the bind at {0} is elsewhere")]
    OutsideRoot(String),
    #[error("cannot carry {} to a remote engine: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> CarryError + '_ {
    move |source| CarryError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Packs `binds` (and `relay`, the host's `nab-relay`, when a socket is among them).
/// Read-only binds are root's and read-only in the container; a writable one is a folder
/// of the sandbox user's.
pub(crate) fn carry(binds: &[BindMount], relay: &Path) -> Result<Carried, CarryError> {
    let mut packer = Packer::default();
    for b in binds.iter().filter(|b| !b.on_engine) {
        let rel = b
            .container
            .strip_prefix(ROOT)
            .and_then(|r| r.strip_prefix('/'))
            .filter(|r| !r.is_empty())
            .ok_or_else(|| CarryError::OutsideRoot(b.container.clone()))?;
        let owner = if b.read_only { 0 } else { SANDBOX_UID };
        packer.parents(rel).map_err(io_err(&b.host))?;
        packer.tree(&b.host, rel, &b.container, owner)?;
    }
    if !packer.sockets.is_empty() {
        packer.parents(RELAY_PATH).map_err(io_err(relay))?;
        let meta = std::fs::metadata(relay).map_err(io_err(relay))?;
        let file = std::fs::File::open(relay).map_err(io_err(relay))?;
        packer
            .file(RELAY_PATH, &meta, 0, file)
            .map_err(io_err(relay))?;
    }
    let any = !packer.seen.is_empty();
    let tar = packer.builder.into_inner().map_err(io_err(relay))?;
    Ok(Carried {
        tar: if any { tar } else { Vec::new() },
        sockets: packer.sockets,
    })
}

struct Packer {
    builder: tar::Builder<Vec<u8>>,
    /// Folders already in the archive (relative paths).
    seen: std::collections::BTreeSet<String>,
    sockets: Vec<RelayedSocket>,
}

impl Default for Packer {
    fn default() -> Self {
        let mut builder = tar::Builder::new(Vec::new());
        builder.follow_symlinks(false);
        Packer {
            builder,
            seen: Default::default(),
            sockets: Vec::new(),
        }
    }
}

fn header(kind: tar::EntryType, mode: u32, owner: u32) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(kind);
    h.set_mode(mode);
    h.set_uid(u64::from(owner));
    h.set_gid(u64::from(owner));
    h.set_size(0);
    h
}

impl Packer {
    /// Root's folders for every parent of `rel` not yet in the archive.
    fn parents(&mut self, rel: &str) -> std::io::Result<()> {
        let mut path = String::new();
        let parts: Vec<&str> = rel.split('/').collect();
        for part in &parts[..parts.len().saturating_sub(1)] {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(part);
            self.dir(&path, 0o755, 0)?;
        }
        Ok(())
    }

    fn dir(&mut self, rel: &str, mode: u32, owner: u32) -> std::io::Result<()> {
        if !self.seen.insert(rel.to_owned()) {
            return Ok(());
        }
        let mut h = header(tar::EntryType::Directory, mode, owner);
        self.builder.append_data(&mut h, rel, std::io::empty())
    }

    /// A file, read-only unless the sandbox user owns it; its execute bits are kept.
    fn file(
        &mut self,
        rel: &str,
        meta: &std::fs::Metadata,
        owner: u32,
        data: impl std::io::Read,
    ) -> std::io::Result<()> {
        self.seen.insert(rel.to_owned());
        let exec = meta.mode() & 0o111;
        let mode = if owner == 0 {
            0o444 | exec
        } else {
            0o644 | exec
        };
        let mut h = header(tar::EntryType::Regular, mode, owner);
        h.set_size(meta.len());
        self.builder.append_data(&mut h, rel, data)
    }

    /// `host` (a file, a folder or a socket) at `rel`, and everything under a folder.
    fn tree(
        &mut self,
        host: &Path,
        rel: &str,
        container: &str,
        owner: u32,
    ) -> Result<(), CarryError> {
        // The bind's own path may be a link (NAB_AGENT_BIN, say); what is under it is not
        // followed.
        let meta = std::fs::metadata(host).map_err(io_err(host))?;
        if !meta.is_dir() {
            return self.entry(host, &meta, rel, container, owner);
        }
        self.dir(rel, 0o755, owner).map_err(io_err(host))?;
        for entry in walkdir::WalkDir::new(host)
            .follow_links(false)
            .min_depth(1)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| io_err(host)(std::io::Error::other(e)))?;
            let sub = entry.path().strip_prefix(host).unwrap_or(entry.path());
            let sub = sub.to_string_lossy();
            let (rel, container) = (format!("{rel}/{sub}"), format!("{container}/{sub}"));
            let meta = std::fs::symlink_metadata(entry.path()).map_err(io_err(entry.path()))?;
            self.entry(entry.path(), &meta, &rel, &container, owner)?;
        }
        Ok(())
    }

    fn entry(
        &mut self,
        path: &Path,
        meta: &std::fs::Metadata,
        rel: &str,
        container: &str,
        owner: u32,
    ) -> Result<(), CarryError> {
        let ft = meta.file_type();
        let done = if ft.is_socket() {
            self.sockets.push(RelayedSocket {
                container: container.to_owned(),
                host: path.to_owned(),
            });
            Ok(())
        } else if ft.is_dir() {
            self.dir(rel, 0o755, owner)
        } else if ft.is_symlink() {
            let target = std::fs::read_link(path).map_err(io_err(path))?;
            let mut h = header(tar::EntryType::Symlink, 0o777, owner);
            self.seen.insert(rel.to_owned());
            self.builder.append_link(&mut h, rel, target)
        } else if ft.is_file() {
            let file = std::fs::File::open(path).map_err(io_err(path))?;
            self.file(rel, meta, owner, file)
        } else {
            // A FIFO or a device in a task folder has no meaning in a copy.
            Ok(())
        };
        done.map_err(io_err(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bind(host: &Path, container: &str, read_only: bool) -> BindMount {
        BindMount {
            host: host.to_owned(),
            container: container.to_owned(),
            read_only,
            on_engine: false,
        }
    }

    fn entries(tar: &[u8]) -> Vec<(String, u32, u64, tar::EntryType)> {
        let mut a = tar::Archive::new(tar);
        a.entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let h = e.header();
                (
                    e.path().unwrap().to_string_lossy().into_owned(),
                    h.mode().unwrap(),
                    h.uid().unwrap(),
                    h.entry_type(),
                )
            })
            .collect()
    }

    #[test]
    fn files_folders_and_sockets_are_carried_each_its_own_way() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("instruction.md"), "do it").unwrap();
        std::fs::create_dir(d.join("mcp")).unwrap();
        std::fs::write(d.join("mcp/servers.json"), "{}").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("mcp/link")).unwrap();
        let _l = std::os::unix::net::UnixListener::bind(d.join("mcp/a.sock")).unwrap();
        let _g = std::os::unix::net::UnixListener::bind(d.join("llm.sock")).unwrap();
        std::fs::write(d.join("relay"), "binary").unwrap();
        std::fs::create_dir(d.join("out")).unwrap();
        let binds = [
            bind(&d.join("instruction.md"), "/nab/instruction.md", true),
            bind(&d.join("mcp"), "/nab/mcp-sockets", true),
            bind(&d.join("llm.sock"), "/nab/llm.sock", true),
            bind(&d.join("out"), "/nab/out", false),
        ];
        let c = carry(&binds, &d.join("relay")).unwrap();
        let got = entries(&c.tar);
        let find = |p: &str| got.iter().find(|e| e.0.trim_end_matches('/') == p).cloned();
        assert_eq!(find("instruction.md").unwrap().1, 0o444);
        assert_eq!(find("instruction.md").unwrap().2, 0);
        assert_eq!(find("mcp-sockets/link").unwrap().3, tar::EntryType::Symlink);
        assert!(
            find("mcp-sockets/a.sock").is_none(),
            "a socket is relayed, not archived"
        );
        assert_eq!(find("out").unwrap().2, u64::from(SANDBOX_UID));
        assert_eq!(find(".relay/nab-relay").unwrap().1, 0o444);
        let sockets: Vec<_> = c.sockets.iter().map(|s| s.container.as_str()).collect();
        assert_eq!(sockets, ["/nab/mcp-sockets/a.sock", "/nab/llm.sock"]);
    }

    #[test]
    fn a_bind_outside_nab_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let err = carry(&[bind(dir.path(), "/etc/x", true)], dir.path()).unwrap_err();
        assert!(err.to_string().contains("/etc/x"), "{err}");
    }
}
