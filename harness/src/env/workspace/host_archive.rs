//! The agent's workspace archived from its disk quota on this machine, in the form the
//! engine's archive API gives it, so that the one reader ([`super::Snapshot::from_tar_picking`])
//! takes either and the verdict cannot depend on which made it.
//!
//! When the workspace is a quota mounted here, the engine's archive copy is a round trip
//! through the daemon, which starts a process of its own to walk the container's view of
//! the same folder (about a tenth of a second and of a CPU-second a trial). Walking the
//! folder here gives the same entries: the agent's processes died with its container, so
//! nothing changes the tree while it is read.
//!
//! The tree is the agent's, so it is read as hostile: symlinks are recorded, never
//! followed; a file is opened without following a link and without blocking, and read
//! only when it is still the regular file the walk saw; fifos, devices and hard links are
//! entries without content; sockets are left out (as the engine leaves them out). The
//! whole archive's size is known from the walk before a byte is sent, so a tree over the
//! limit (sparse files at their full size, as the engine counts them) is refused unread.

use bytes::{Bytes, BytesMut};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs::Metadata;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use tokio::sync::mpsc::Sender;

/// What a chunk sent to the reader holds at most.
const CHUNK: usize = 64 * 1024;
/// A tar block.
const BLOCK: u64 = 512;

/// Why no archive, or no whole archive, was sent.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HostArchiveError {
    /// The tree could not be walked: nothing was sent, so the caller may copy through the
    /// engine instead.
    #[error("walking {path}: {source}")]
    Walk { path: PathBuf, source: io::Error },
    /// The archive would be larger than the limit: nothing was sent.
    #[error("the archive would be larger than {limit} bytes")]
    TooLarge { limit: u64 },
    /// The archive broke off after its start (a file could not be read): what was sent
    /// is not the workspace, and the harness, not the agent, failed.
    #[error("archiving the workspace: {0}")]
    Stream(io::Error),
}

/// One entry of the tree, found by the walk.
struct Found {
    /// Relative to the root, `/`-separated, raw bytes.
    rel: Vec<u8>,
    meta: Metadata,
}

/// Sends the tree under `root` to `into` as the engine's archive API would (every name
/// under `top/`, `top/` itself first), refusing a tree whose archive is over `limit` bytes.
/// Blocking: run it on a blocking thread.
pub(crate) fn send(
    root: &Path,
    top: &str,
    into: Sender<Bytes>,
    limit: u64,
) -> Result<(), HostArchiveError> {
    let found = walk(root)?;
    let size = archive_size(top, &found);
    if size > limit {
        return Err(HostArchiveError::TooLarge { limit });
    }
    let root_meta = std::fs::symlink_metadata(root).map_err(|source| HostArchiveError::Walk {
        path: root.to_owned(),
        source,
    })?;
    let into = ChunkWriter {
        into,
        buf: BytesMut::with_capacity(CHUNK),
    };
    match write_archive(into, root, &root_meta, top, &found) {
        // The reader hung up (it found the archive bad, or ran out of time): what it says
        // is the trial's answer, as when the engine's copy is cut short.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(HostArchiveError::Stream(e)),
        Ok(()) => Ok(()),
    }
}

/// Writes the archive of the walked tree.
fn write_archive(
    into: ChunkWriter,
    root: &Path,
    root_meta: &Metadata,
    top: &str,
    found: &[Found],
) -> io::Result<()> {
    let mut builder = tar::Builder::new(into);
    let mut top_header = header(root_meta, tar::EntryType::Directory);
    builder.append_data(&mut top_header, format!("{top}/"), io::empty())?;
    // The first name of each inode with other links; later ones are links to it.
    let mut seen: HashMap<(u64, u64), PathBuf> = HashMap::new();
    for f in found {
        append(&mut builder, root, f, named(top, &f.rel), &mut seen)?;
    }
    builder.finish()?;
    builder.into_inner()?.flush()
}

/// Every entry under `root` (not `root` itself) in the engine's order: depth first, each
/// folder's names in byte order; links not followed. Iterative, so a deep tree cannot
/// exhaust the stack.
fn walk(root: &Path) -> Result<Vec<Found>, HostArchiveError> {
    let walk_err = |path: &Path| {
        let path = path.to_owned();
        move |source| HostArchiveError::Walk { path, source }
    };
    let mut found = Vec::new();
    let mut pending: Vec<Vec<u8>> = vec![Vec::new()];
    while let Some(dir_rel) = pending.pop() {
        let dir = root.join(OsStr::from_bytes(&dir_rel));
        for entry in std::fs::read_dir(&dir).map_err(walk_err(&dir))? {
            let name = entry.map_err(walk_err(&dir))?.file_name();
            let mut rel = dir_rel.clone();
            if !rel.is_empty() {
                rel.push(b'/');
            }
            rel.extend_from_slice(name.as_bytes());
            let path = root.join(OsStr::from_bytes(&rel));
            let meta = std::fs::symlink_metadata(&path).map_err(walk_err(&path))?;
            if meta.file_type().is_socket() {
                continue;
            }
            if meta.is_dir() {
                pending.push(rel.clone());
            }
            found.push(Found { rel, meta });
        }
    }
    // Comparing the names component by component puts a folder right before its own
    // entries, and those before the folder's next sibling: the engine's depth-first order.
    found.sort_by(|a, b| a.rel.split(|&c| c == b'/').cmp(b.rel.split(|&c| c == b'/')));
    Ok(found)
}

/// `top/rel`, with a trailing `/` for folders (the engine's form).
fn named(top: &str, rel: &[u8]) -> PathBuf {
    let mut name = Vec::with_capacity(top.len() + 1 + rel.len());
    name.extend_from_slice(top.as_bytes());
    name.push(b'/');
    name.extend_from_slice(rel);
    PathBuf::from(OsStr::from_bytes(&name))
}

/// The archive's size in bytes: each entry's header (and long-name headers), each regular
/// file's content padded to a block (once for all the names of one inode: the others are
/// links), and the two closing blocks.
fn archive_size(top: &str, found: &[Found]) -> u64 {
    let long = |len: usize| -> u64 {
        if len < 100 {
            0
        } else {
            BLOCK + (len as u64).div_ceil(BLOCK) * BLOCK
        }
    };
    let mut linked = std::collections::HashSet::new();
    let mut size = BLOCK + 2 * BLOCK;
    for f in found {
        let name_len = top.len() + 1 + f.rel.len() + usize::from(f.meta.is_dir());
        size += BLOCK + long(name_len);
        if f.meta.file_type().is_symlink() {
            size += long(f.meta.len() as usize);
        } else if f.meta.is_file()
            && (f.meta.nlink() < 2 || linked.insert((f.meta.dev(), f.meta.ino())))
        {
            size += f.meta.len().div_ceil(BLOCK) * BLOCK;
        }
    }
    size
}

/// A header for `meta`'s entry: its whole mode (the file type's bits too, as the engine
/// writes them, and as the task's own snapshot records them: the diff compares modes),
/// owner and time, size 0 (a regular file's is set by the caller).
fn header(meta: &Metadata, kind: tar::EntryType) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(kind);
    h.set_mode(meta.mode());
    h.set_uid(u64::from(meta.uid()));
    h.set_gid(u64::from(meta.gid()));
    h.set_mtime(u64::try_from(meta.mtime()).unwrap_or(0));
    h.set_size(0);
    h
}

/// Appends one entry; a regular file's content is read from a file opened without
/// following links or blocking, and only when it is the file the walk found.
fn append<W: Write>(
    builder: &mut tar::Builder<W>,
    root: &Path,
    f: &Found,
    name: PathBuf,
    seen: &mut HashMap<(u64, u64), PathBuf>,
) -> io::Result<()> {
    let ft = f.meta.file_type();
    let path = root.join(OsStr::from_bytes(&f.rel));
    if ft.is_dir() {
        let mut h = header(&f.meta, tar::EntryType::Directory);
        let mut dir_name = name.into_os_string();
        dir_name.push("/");
        return builder.append_data(&mut h, dir_name, io::empty());
    }
    if ft.is_symlink() {
        let target = std::fs::read_link(&path)?;
        let mut h = header(&f.meta, tar::EntryType::Symlink);
        return append_link(builder, &mut h, name, target.as_os_str().as_bytes());
    }
    if !ft.is_file() {
        let kind = if ft.is_fifo() {
            tar::EntryType::Fifo
        } else if ft.is_char_device() {
            tar::EntryType::Char
        } else {
            tar::EntryType::Block
        };
        let mut h = header(&f.meta, kind);
        return builder.append_data(&mut h, name, io::empty());
    }
    if f.meta.nlink() > 1 {
        let key = (f.meta.dev(), f.meta.ino());
        if let Some(first) = seen.get(&key) {
            let mut h = header(&f.meta, tar::EntryType::Link);
            return append_link(builder, &mut h, name, first.as_os_str().as_bytes());
        }
        seen.insert(key, name.clone());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&path)?;
    let now = file.metadata()?;
    if !now.is_file() || now.ino() != f.meta.ino() || now.len() != f.meta.len() {
        return Err(io::Error::other(format!(
            "{} changed while the workspace was read",
            path.display()
        )));
    }
    let mut h = header(&f.meta, tar::EntryType::Regular);
    h.set_size(f.meta.len());
    builder.append_data(&mut h, name, ExactlyLen::new(file, f.meta.len()))
}

/// Appends a link entry whose target is `target` byte for byte, as the engine writes it
/// (the tar crate's own `append_link` tidies a target as a path: `/` becomes `//`, `a/./b`
/// becomes `a/b`); a target longer than the header's field goes first in a GNU long-link
/// entry, which the reader takes in its place.
fn append_link<W: Write>(
    builder: &mut tar::Builder<W>,
    h: &mut tar::Header,
    name: PathBuf,
    target: &[u8],
) -> io::Result<()> {
    const FIELD: usize = 100;
    if target.len() > FIELD {
        let mut long = tar::Header::new_gnu();
        long.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
        long.set_entry_type(tar::EntryType::GNULongLink);
        long.set_mode(0o644);
        let mut data = target.to_vec();
        data.push(0);
        long.set_size(data.len() as u64);
        long.set_cksum();
        builder.append(&long, &data[..])?;
    }
    h.set_link_name_literal(&target[..target.len().min(FIELD)])?;
    builder.append_data(h, name, io::empty())
}

/// A file's content, exactly `len` bytes of it: a file that ends early is an error, not
/// an archive whose next header starts inside the content.
struct ExactlyLen<R> {
    inner: io::Take<R>,
    left: u64,
}

impl<R: io::Read> ExactlyLen<R> {
    fn new(r: R, len: u64) -> Self {
        Self {
            inner: r.take(len),
            left: len,
        }
    }
}

impl<R: io::Read> io::Read for ExactlyLen<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && self.left > 0 && !buf.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "a file ended before its size",
            ));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Writes the archive to the reader in chunks; the reader hanging up ends the writing.
struct ChunkWriter {
    into: Sender<Bytes>,
    buf: BytesMut,
}

impl ChunkWriter {
    fn send_buffered(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = self.buf.split().freeze();
        self.into
            .blocking_send(chunk)
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the reader hung up"))
    }
}

impl Write for ChunkWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.send_buffered()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send_buffered()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::workspace::{Node, Picks, Snapshot};

    /// Archives `root` as [`send`] does and reads it back with the trial's reader.
    fn read_back(root: &Path, limit: u64) -> Result<Snapshot, HostArchiveError> {
        let (tx, mut rx) = tokio::sync::mpsc::channel(1 << 16);
        send(root, "workspace", tx, limit)?;
        let mut bytes = Vec::new();
        while let Ok(chunk) = rx.try_recv() {
            bytes.extend_from_slice(&chunk);
        }
        Ok(Snapshot::from_tar_picking(&bytes[..], &mut Picks::default()).expect("a tar"))
    }

    fn node<'a>(s: &'a Snapshot, rel: &[u8]) -> Option<&'a Node> {
        s.nodes.get(rel)
    }

    #[test]
    fn links_fifos_and_sockets_are_recorded_never_followed_or_opened() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        std::fs::write(root.join("src/a.py"), "print(1)\n").unwrap();
        std::fs::write(root.join("src/deep/b.txt"), "b\n").unwrap();
        std::os::unix::fs::symlink("/", root.join("host-root")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("passwd")).unwrap();
        std::fs::hard_link(root.join("src/a.py"), root.join("z-link.py")).unwrap();
        let fifo = std::ffi::CString::new(root.join("pipe").as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let _socket = std::os::unix::net::UnixListener::bind(root.join("sock")).unwrap();
        let long = "n".repeat(150);
        std::fs::write(root.join(&long), "long name\n").unwrap();
        let far = format!("{}/x/./y", "d".repeat(140));
        std::os::unix::fs::symlink(&far, root.join("far")).unwrap();
        std::os::unix::fs::symlink("a//b/.", root.join("untidy")).unwrap();
        let odd = OsStr::from_bytes(b"odd-\xff-name");
        std::fs::write(root.join(odd), "x").unwrap();

        let s = read_back(&root, 1 << 30).unwrap();
        assert_eq!(node(&s, b"host-root"), Some(&Node::Symlink("/".into())));
        assert_eq!(
            node(&s, b"passwd"),
            Some(&Node::Symlink("/etc/passwd".into()))
        );
        assert!(
            !s.nodes.keys().any(|k| k.starts_with(b"host-root/")),
            "a link was followed"
        );
        // Targets byte for byte, long or untidy, as the engine's archive has them.
        assert_eq!(node(&s, b"far"), Some(&Node::Symlink(far.clone())));
        assert_eq!(node(&s, b"untidy"), Some(&Node::Symlink("a//b/.".into())));
        assert_eq!(node(&s, b"pipe"), Some(&Node::Other("Fifo".into())));
        assert_eq!(
            node(&s, b"sock"),
            None,
            "sockets are left out, as the engine leaves them"
        );
        assert_eq!(
            node(&s, b"z-link.py"),
            Some(&Node::Other("hard link to workspace/src/a.py".into()))
        );
        match node(&s, b"src/a.py") {
            Some(Node::File { text, size, .. }) => {
                assert_eq!(text.as_deref(), Some("print(1)\n"));
                assert_eq!(*size, 9);
            }
            other => panic!("src/a.py: {other:?}"),
        }
        assert_eq!(node(&s, b"src/deep"), Some(&Node::Dir));
        assert!(matches!(
            node(&s, b"src/deep/b.txt"),
            Some(Node::File { .. })
        ));
        assert!(matches!(node(&s, long.as_bytes()), Some(Node::File { .. })));
        assert!(matches!(
            node(&s, b"odd-\xff-name"),
            Some(Node::File { .. })
        ));
    }

    #[test]
    fn modes_keep_their_type_permission_and_set_id_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("run.sh"), "#!/bin/sh\n").unwrap();
        let mode = std::fs::Permissions::from_mode(0o4755);
        std::fs::set_permissions(dir.path().join("run.sh"), mode).unwrap();
        let s = read_back(dir.path(), 1 << 30).unwrap();
        match node(&s, b"run.sh") {
            Some(Node::File { mode, .. }) => assert_eq!(*mode, 0o104755),
            other => panic!("run.sh: {other:?}"),
        }
    }

    #[test]
    fn a_sparse_file_over_the_limit_is_refused_before_anything_is_sent() {
        let dir = tempfile::tempdir().unwrap();
        let f = std::fs::File::create(dir.path().join("sparse")).unwrap();
        f.set_len(8 << 30).unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::channel(16);
        let sent = send(dir.path(), "workspace", tx, 1 << 30);
        assert!(matches!(sent, Err(HostArchiveError::TooLarge { limit }) if limit == 1 << 30));
        assert!(
            rx.try_recv().is_err(),
            "nothing may be sent for a tree over the limit"
        );
    }

    #[test]
    fn hard_links_count_their_content_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big"), vec![b'x'; 1 << 20]).unwrap();
        for i in 0..200 {
            std::fs::hard_link(dir.path().join("big"), dir.path().join(format!("l{i}"))).unwrap();
        }
        // 200 copies would be 200 MiB; as links the archive is about 1.1 MiB.
        let s = read_back(dir.path(), 2 << 20).unwrap();
        assert_eq!(s.nodes.len(), 201);
    }

    #[test]
    fn a_reader_that_hangs_up_ends_the_archive_quietly() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big"), vec![b'x'; 4 << 20]).unwrap();
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        drop(rx);
        assert!(send(dir.path(), "workspace", tx, 1 << 30).is_ok());
    }

    #[test]
    fn the_walk_is_the_engines_depth_first_byte_order() {
        let dir = tempfile::tempdir().unwrap();
        for d in ["a", "a/x", "b"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        for f in ["a.txt", "a/x/f", "a/y", "b/c", "A"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let order: Vec<String> = walk(dir.path())
            .unwrap()
            .into_iter()
            .map(|f| String::from_utf8(f.rel).unwrap())
            .collect();
        assert_eq!(
            order,
            ["A", "a", "a/x", "a/x/f", "a/y", "a.txt", "b", "b/c"]
        );
    }
}
