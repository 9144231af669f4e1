//! `nab-relay`: the in-container half of the socket relay of remote engines.
//!
//! A remote engine cannot bind-mount the harness's Unix sockets (the model gateway's, the
//! MCP servers'), so the harness copies this program into the container and execs it as
//! root (with no capability: it can create the sockets in the root-owned `/nab`, and the
//! sandbox user cannot signal it) with one socket path per argument. It listens at each
//! path and carries every connection over its standard input and output in the frames of
//! [`nab_protocol::FrameKind`]; the harness connects each one to the real socket. The
//! container still has no network: the bytes travel through the engine's exec stream.
//!
//! Everything on the socket side is the code under test: connections are capped, and a
//! client that stops reading stalls only its own trial (the harness ends the relay with
//! the container).
//!
//! Its other mode, [`loopback`], serves the gateway at an HTTP base URL on the container's
//! loopback, on every engine.

pub mod loopback;

use nab_protocol::{FrameBuffer, FrameKind, MAX_PAYLOAD, encode_frame};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Connections open at once over all listeners; more wait until one is removed.
pub const MAX_CONNECTIONS: usize = 64;

type Conns = Mutex<HashMap<u32, Arc<UnixStream>>>;

/// The state the listeners, the readers and the dispatcher share.
struct Shared {
    out: Mutex<Box<dyn Write + Send>>,
    conns: Conns,
    /// Signalled when a connection is removed: one past the cap waits for it.
    freed: Condvar,
    next: AtomicU32,
}

impl Shared {
    /// Writes one frame; an error means the harness went away (the program then ends when
    /// its input does).
    fn send(&self, kind: FrameKind, conn: u32, payload: &[u8]) -> io::Result<()> {
        let frame = encode_frame(kind, conn, payload);
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        out.write_all(&frame).and_then(|()| out.flush())
    }

    fn get(&self, conn: u32) -> Option<Arc<UnixStream>> {
        let conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        conns.get(&conn).cloned()
    }

    fn remove(&self, conn: u32) -> Option<Arc<UnixStream>> {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        let removed = conns.remove(&conn);
        self.freed.notify_all();
        removed
    }
}

/// Binds every path (anyone in the container may connect), says `Ready`, then carries
/// connections until `input` ends. Returns an error for a malformed frame from the harness
/// or a socket that cannot be bound.
pub fn run(
    paths: &[PathBuf],
    mut input: impl Read,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let shared = Arc::new(Shared {
        out: Mutex::new(Box::new(output)),
        conns: Mutex::new(HashMap::new()),
        freed: Condvar::new(),
        next: AtomicU32::new(1),
    });
    let mut listeners = Vec::new();
    for path in paths {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let listener = UnixListener::bind(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666))?;
        listeners.push(listener);
    }
    shared.send(FrameKind::Ready, 0, &[])?;
    for (index, listener) in listeners.into_iter().enumerate() {
        let shared = shared.clone();
        std::thread::spawn(move || accept(&shared, &listener, index as u32));
    }
    dispatch(&shared, &mut input)
}

/// Accepts connections on one listener, announcing each and starting its reader.
fn accept(shared: &Arc<Shared>, listener: &UnixListener, index: u32) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let stream = Arc::new(stream);
        let id = {
            let mut conns = shared.conns.lock().unwrap_or_else(PoisonError::into_inner);
            // At the cap, this one waits until another is removed (its client's connect
            // already succeeded; it is served late, not refused).
            while conns.len() >= MAX_CONNECTIONS {
                conns = shared
                    .freed
                    .wait(conns)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            let id = shared.next.fetch_add(1, Ordering::Relaxed);
            conns.insert(id, stream.clone());
            id
        };
        if shared
            .send(FrameKind::Open, id, &index.to_be_bytes())
            .is_err()
        {
            return;
        }
        let shared = shared.clone();
        spawn_when_possible(move || read_client(&shared, id, &stream));
    }
}

/// How long to wait before trying again to start a thread.
const THREAD_RETRY: std::time::Duration = std::time::Duration::from_millis(10);

/// Runs `work` on a thread of its own (with a small stack: each only copies bytes through
/// a buffer), waiting until one can be made.
///
/// The threads count against the container's process limit, which the code under test
/// shares and may have spent. A connection then waits, as it does past the cap, and is
/// served once the agent lets go: it must neither end the relay (a failed
/// `std::thread::spawn` panics, which took the listener with it) nor be dropped.
pub(crate) fn spawn_when_possible(work: impl FnOnce() + Send + 'static) {
    spawn_with(work, |attempt| small_thread().spawn(attempt).map(drop));
}

/// [`spawn_when_possible`] with the spawning given: `spawn` drops what it could not start,
/// so `work` waits in a slot of its own between attempts.
fn spawn_with<F: FnOnce() + Send + 'static>(
    work: F,
    mut spawn: impl FnMut(Box<dyn FnOnce() + Send>) -> io::Result<()>,
) {
    let work = Arc::new(Mutex::new(Some(work)));
    loop {
        let slot = work.clone();
        let attempt = Box::new(move || {
            let taken = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(work) = taken {
                work();
            }
        });
        if spawn(attempt).is_ok() {
            return;
        }
        std::thread::sleep(THREAD_RETRY);
    }
}

/// A thread with a small stack.
pub(crate) fn small_thread() -> std::thread::Builder {
    std::thread::Builder::new().stack_size(64 * 1024)
}

/// Sends what the client writes, then `Eof` when it stops writing.
fn read_client(shared: &Shared, id: u32, stream: &UnixStream) {
    let mut buf = vec![0u8; MAX_PAYLOAD];
    loop {
        let sent = match (&*stream).read(&mut buf) {
            Ok(0) => return drop(shared.send(FrameKind::Eof, id, &[])),
            Ok(n) => shared.send(FrameKind::Data, id, &buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(()),
            Err(_) => {
                shared.remove(id);
                return drop(shared.send(FrameKind::Close, id, &[]));
            }
        };
        if sent.is_err() {
            return;
        }
    }
}

/// Applies the harness's frames to the connections until its stream ends.
fn dispatch(shared: &Shared, input: &mut impl Read) -> io::Result<()> {
    let mut frames = FrameBuffer::default();
    let mut buf = vec![0u8; MAX_PAYLOAD];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        frames.push(&buf[..n]);
        while let Some((header, payload)) = frames.next_frame().map_err(io::Error::other)? {
            apply(shared, header.kind, header.conn, &payload)?;
        }
    }
}

fn apply(shared: &Shared, kind: FrameKind, conn: u32, payload: &[u8]) -> io::Result<()> {
    match kind {
        FrameKind::Data => {
            let Some(stream) = shared.get(conn) else {
                return Ok(());
            };
            if (&*stream).write_all(payload).is_err() {
                shared.remove(conn);
                let _ = stream.shutdown(Shutdown::Both);
                shared.send(FrameKind::Close, conn, &[])?;
            }
        }
        FrameKind::Eof => {
            if let Some(stream) = shared.get(conn) {
                let _ = stream.shutdown(Shutdown::Write);
            }
        }
        FrameKind::Close => {
            if let Some(stream) = shared.remove(conn) {
                let _ = stream.shutdown(Shutdown::Both);
            }
        }
        other => {
            return Err(io::Error::other(format!(
                "the harness sent a {other:?} frame, which only the relay sends"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn work_whose_thread_cannot_be_made_waits_and_runs_once_one_can() {
        let (done_tx, done) = mpsc::channel();
        let mut tries = 0;
        spawn_with(
            move || done_tx.send("ran").unwrap(),
            |attempt| {
                tries += 1;
                if tries <= 3 {
                    // Dropped unstarted, as a failed spawn drops its closure.
                    return Err(io::Error::from(io::ErrorKind::WouldBlock));
                }
                std::thread::spawn(attempt);
                Ok(())
            },
        );
        assert_eq!(tries, 4);
        let ran = done.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(ran, Ok("ran"));
        assert!(done.try_recv().is_err(), "ran twice");
    }
}
