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
//! client that stops reading is closed once [`CONN_BACKLOG`] bytes wait for it, so it holds
//! up no other connection (the agent's model calls and MCP calls go on). Every connection is served by one thread, on a single-threaded runtime:
//! the container's process limit is the agent's too, and one that has spent it (or holds
//! many connections) must still reach its model.
//!
//! Its other mode, [`loopback`], serves the gateway at an HTTP base URL on the container's
//! loopback, on every engine.

pub mod loopback;

use nab_protocol::{FrameBuffer, FrameKind, MAX_PAYLOAD, encode_frame};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

/// Connections open at once over all listeners; more wait until one is removed.
pub const MAX_CONNECTIONS: usize = 64;

/// Bytes from the harness that may wait for one client to read them. Past this the client
/// is taken to have stopped reading, and its connection is closed (the harness is told
/// `Close`) rather than left to hold up the frames of every other connection. A client that
/// reads as it goes never comes near it: a model's whole answer, or an MCP result, is far
/// less. The memory it bounds is the container's, which the agent shares.
pub const CONN_BACKLOG: usize = 8 << 20;

/// What a connection's task is told by the harness.
enum ToConn {
    Data(Vec<u8>),
    Eof,
}

/// The state the listeners, the connections and the dispatcher share.
struct Shared {
    /// Frames for the harness, written in order by a thread of their own.
    out: mpsc::Sender<Vec<u8>>,
    /// The open connections; the harness's `Close` removes one, which ends its task.
    conns: Mutex<HashMap<u32, Conn>>,
    slots: Arc<Semaphore>,
    next: AtomicU32,
}

impl Shared {
    /// Queues one frame; an error means the harness went away (the program then ends when
    /// its input does).
    async fn send(&self, kind: FrameKind, conn: u32, payload: &[u8]) -> Result<(), ()> {
        self.out
            .send(encode_frame(kind, conn, payload))
            .await
            .map_err(drop)
    }

    fn get(&self, conn: u32) -> Option<Conn> {
        let conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        conns.get(&conn).cloned()
    }

    fn remove(&self, conn: u32) -> Option<Conn> {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        conns.remove(&conn)
    }
}

/// One open connection, as the dispatcher sees it: its task's queue, and how many bytes in
/// it the client has not taken yet.
#[derive(Clone)]
struct Conn {
    to_task: mpsc::UnboundedSender<ToConn>,
    backlog: Arc<AtomicUsize>,
    /// Told when the dispatcher closes the connection: its task ends at once, without
    /// writing what is still queued for a client that does not read.
    closed: Arc<Notify>,
}

/// A connection's task's side of its [`Conn`].
struct Queue {
    from_harness: mpsc::UnboundedReceiver<ToConn>,
    backlog: Arc<AtomicUsize>,
    closed: Arc<Notify>,
}

/// Binds every path (anyone in the container may connect), says `Ready`, then carries
/// connections until `input` ends. Returns an error for a malformed frame from the harness
/// or a socket that cannot be bound.
pub fn run(
    paths: &[PathBuf],
    mut input: impl Read,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let mut listeners = Vec::new();
    for path in paths {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let listener = std::os::unix::net::UnixListener::bind(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666))?;
        listener.set_nonblocking(true)?;
        listeners.push(listener);
    }
    // Everything the relay needs is made before `Ready` reaches the harness: nothing the
    // agent does later (it may spend the container's process limit) can keep it from
    // serving. `Ready` is queued first, so no other frame goes before it.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    let (out, frames_out) = mpsc::channel::<Vec<u8>>(64);
    out.try_send(encode_frame(FrameKind::Ready, 0, &[]))
        .map_err(io::Error::other)?;
    let shared = Arc::new(Shared {
        out,
        conns: Mutex::new(HashMap::new()),
        slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
        next: AtomicU32::new(1),
    });
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = shared.clone();
    let server = std::thread::Builder::new().spawn(move || {
        runtime.block_on(async move {
            for (index, listener) in listeners.into_iter().enumerate() {
                tokio::spawn(accept(serving.clone(), listener, index as u32));
            }
            let _ = stopped.await;
        });
        // Dropping the runtime here ends every connection's task.
    })?;
    std::thread::Builder::new().spawn(move || write_frames(frames_out, output))?;
    let result = dispatch(&shared, &mut input);
    drop(stop);
    let _ = server.join();
    result
}

/// Writes the frames for the harness as they come, until it goes away.
fn write_frames(mut frames: mpsc::Receiver<Vec<u8>>, mut output: impl Write) {
    while let Some(frame) = frames.blocking_recv() {
        if output
            .write_all(&frame)
            .and_then(|()| output.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Accepts connections on one listener, announcing each and starting its task.
async fn accept(shared: Arc<Shared>, listener: std::os::unix::net::UnixListener, index: u32) {
    let Ok(listener) = UnixListener::from_std(listener) else {
        return;
    };
    loop {
        // At the cap, the next waits in the listener's backlog until one is removed (its
        // client's connect already succeeded; it is served late, not refused).
        let Ok(slot) = shared.slots.clone().acquire_owned().await else {
            return;
        };
        let Ok((stream, _)) = listener.accept().await else {
            // Out of descriptors, say: wait rather than spin.
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            continue;
        };
        let id = shared.next.fetch_add(1, Ordering::Relaxed);
        let (to_task, from_harness) = mpsc::unbounded_channel();
        let queue = Queue {
            from_harness,
            backlog: Arc::new(AtomicUsize::new(0)),
            closed: Arc::new(Notify::new()),
        };
        let conn = Conn {
            to_task,
            backlog: queue.backlog.clone(),
            closed: queue.closed.clone(),
        };
        shared
            .conns
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, conn);
        if shared
            .send(FrameKind::Open, id, &index.to_be_bytes())
            .await
            .is_err()
        {
            return;
        }
        tokio::spawn(carry(shared.clone(), id, stream, queue, slot));
    }
}

/// One connection: what the client writes goes to the harness (then `Eof` when it stops
/// writing), what the harness sends goes to the client, until the harness closes it or
/// the client's side fails (then the harness is told `Close`).
async fn carry(
    shared: Arc<Shared>,
    id: u32,
    stream: UnixStream,
    mut queue: Queue,
    _slot: OwnedSemaphorePermit,
) {
    let (mut read, mut write) = stream.into_split();
    let mut buf = vec![0u8; MAX_PAYLOAD];
    let mut reading = true;
    loop {
        tokio::select! {
            // The dispatcher closed it (and told the harness).
            () = queue.closed.notified() => return,
            n = read.read(&mut buf), if reading => {
                let sent = match n {
                    Ok(0) => {
                        reading = false;
                        shared.send(FrameKind::Eof, id, &[]).await
                    }
                    Ok(n) => shared.send(FrameKind::Data, id, &buf[..n]).await,
                    Err(_) => break,
                };
                if sent.is_err() {
                    return;
                }
            }
            msg = queue.from_harness.recv() => match msg {
                Some(ToConn::Data(bytes)) => {
                    tokio::select! {
                        written = write.write_all(&bytes) => if written.is_err() {
                            break;
                        },
                        () = queue.closed.notified() => return,
                    }
                    queue.backlog.fetch_sub(bytes.len(), Ordering::Relaxed);
                }
                Some(ToConn::Eof) => {
                    let _ = write.shutdown().await;
                }
                // The harness closed it (and removed it).
                None => return,
            },
        }
    }
    // Unless the dispatcher closed it first (and told the harness so).
    if shared.remove(id).is_some() {
        let _ = shared.send(FrameKind::Close, id, &[]).await;
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
            apply(shared, header.kind, header.conn, payload)?;
        }
    }
}

/// Hands one frame to its connection's task, without waiting: a client that stops reading
/// would otherwise hold up every connection's frames behind its own. Once
/// [`CONN_BACKLOG`] bytes wait for it, its connection is closed and the harness told so.
fn apply(shared: &Shared, kind: FrameKind, conn: u32, payload: Vec<u8>) -> io::Result<()> {
    match kind {
        FrameKind::Data | FrameKind::Eof => {
            // A task that ended has sent its `Close`, or the harness's is on the way.
            let Some(task) = shared.get(conn) else {
                return Ok(());
            };
            let waiting = task.backlog.fetch_add(payload.len(), Ordering::Relaxed);
            if waiting + payload.len() > CONN_BACKLOG {
                if let Some(closed) = shared.remove(conn) {
                    closed.closed.notify_one();
                    let _ = shared
                        .out
                        .blocking_send(encode_frame(FrameKind::Close, conn, &[]));
                }
                return Ok(());
            }
            let msg = match kind {
                FrameKind::Data => ToConn::Data(payload),
                _ => ToConn::Eof,
            };
            let _ = task.to_task.send(msg);
        }
        FrameKind::Close => {
            shared.remove(conn);
        }
        other => {
            return Err(io::Error::other(format!(
                "the harness sent a {other:?} frame, which only the relay sends"
            )));
        }
    }
    Ok(())
}
