//! The harness's half of the socket relay (see `nab-relay`): reads the relay's frames from
//! its exec'd standard output, connects each announced connection to the host socket it
//! stands for, and carries the bytes both ways.
//!
//! The frames come from a container: a malformed one ends the relay (the agent then loses
//! its sockets, its own doing), connections are capped, and every pump ends when the
//! container's stream does. Memory is bounded by small channels: a side that stops
//! reading stalls only its own trial.

use super::super::AttachedProcess;
use super::carry::RelayedSocket;
use bytes::Bytes;
use nab_protocol::{FrameBuffer, FrameKind, MAX_PAYLOAD, data_frames, encode_frame};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;
use tokio::sync::mpsc;

/// How long the relay may take to bind its sockets.
const READY_WITHIN: Duration = Duration::from_secs(20);
/// Connections carried at once (the relay has the same cap).
const MAX_CONNECTIONS: usize = 64;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RelayError {
    #[error("nab-relay in the container did not start: {0}")]
    NotReady(String),
}

/// What a connection's pump is told.
enum ToConn {
    Data(Vec<u8>),
    Eof,
}

/// Waits until the relay has bound every socket, then carries connections in the
/// background until the container's stream ends. The returned handle aborts it.
pub(crate) async fn start(
    mut proc: AttachedProcess,
    sockets: &[RelayedSocket],
) -> Result<tokio::task::JoinHandle<()>, RelayError> {
    let mut frames = FrameBuffer::default();
    let ready = tokio::time::timeout(READY_WITHIN, async {
        loop {
            match frames.next_frame() {
                Ok(Some((h, _))) if h.kind == FrameKind::Ready => return Ok(()),
                Ok(Some((h, _))) => return Err(format!("it said {:?} first", h.kind)),
                Err(e) => return Err(e.to_string()),
                Ok(None) => {}
            }
            match proc.stdout.recv().await {
                Some(chunk) => frames.push(&chunk),
                None => return Err(stderr_of(&mut proc.stderr)),
            }
        }
    })
    .await
    .map_err(|_| RelayError::NotReady(format!("no answer within {} s", READY_WITHIN.as_secs())))?;
    ready.map_err(RelayError::NotReady)?;
    let targets: Vec<PathBuf> = sockets.iter().map(|s| s.host.clone()).collect();
    Ok(tokio::spawn(carry(proc, frames, targets)))
}

/// What the relay printed on standard error before it ended (bounded), for the error.
fn stderr_of(rx: &mut mpsc::Receiver<Bytes>) -> String {
    let mut text = Vec::new();
    while let Ok(chunk) = rx.try_recv() {
        text.extend_from_slice(&chunk[..chunk.len().min(4096 - text.len().min(4096))]);
    }
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    if text.is_empty() {
        "it exited".into()
    } else {
        format!("it exited: {text}")
    }
}

async fn carry(proc: AttachedProcess, mut frames: FrameBuffer, targets: Vec<PathBuf>) {
    let AttachedProcess {
        mut stdin,
        mut stdout,
        ..
    } = proc;
    let (to_relay, mut outgoing) = mpsc::channel::<Vec<u8>>(32);
    let writer = tokio::spawn(async move {
        while let Some(frame) = outgoing.recv().await {
            if stdin.write_all(&frame).await.is_err() || stdin.flush().await.is_err() {
                break;
            }
        }
    });
    let mut conns: HashMap<u32, mpsc::Sender<ToConn>> = HashMap::new();
    'stream: loop {
        loop {
            let (header, payload) = match frames.next_frame() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!("socket relay: {e}; relay stopped");
                    break 'stream;
                }
            };
            let done = route(
                header.kind,
                header.conn,
                payload,
                &mut conns,
                &targets,
                &to_relay,
            );
            if done.await.is_err() {
                break 'stream;
            }
        }
        match stdout.recv().await {
            Some(chunk) => frames.push(&chunk),
            None => break,
        }
    }
    drop(conns);
    drop(to_relay);
    let _ = writer.await;
}

/// Applies one frame from the relay; `Err` when the relay said something only the harness
/// says (the stream is then abandoned).
async fn route(
    kind: FrameKind,
    conn: u32,
    payload: Vec<u8>,
    conns: &mut HashMap<u32, mpsc::Sender<ToConn>>,
    targets: &[PathBuf],
    to_relay: &mpsc::Sender<Vec<u8>>,
) -> Result<(), ()> {
    match kind {
        FrameKind::Open => {
            conns.retain(|_, tx| !tx.is_closed());
            let index = payload
                .first_chunk::<4>()
                .map(|b| u32::from_be_bytes(*b) as usize);
            let target = index.and_then(|i| targets.get(i));
            match target {
                Some(t) if conns.len() < MAX_CONNECTIONS && !conns.contains_key(&conn) => {
                    let (tx, rx) = mpsc::channel(8);
                    conns.insert(conn, tx);
                    tokio::spawn(pump(conn, t.clone(), rx, to_relay.clone()));
                }
                _ => {
                    let _ = to_relay
                        .send(encode_frame(FrameKind::Close, conn, &[]))
                        .await;
                }
            }
        }
        FrameKind::Data | FrameKind::Eof => {
            let msg = match kind {
                FrameKind::Data => ToConn::Data(payload),
                _ => ToConn::Eof,
            };
            if let Some(tx) = conns.get(&conn) {
                // A pump that ended drops its receiver; its Close is on the way.
                let _ = tx.send(msg).await;
            }
        }
        FrameKind::Close => {
            conns.remove(&conn);
        }
        _ => return Err(()),
    }
    Ok(())
}

/// One connection: the host socket's bytes go to the relay, the relay's to the socket;
/// then its `Close`.
///
/// The connection's slot is given back (its receiver dropped, which [`route`] counts by)
/// before the `Close` is sent: the relay frees its own slot on that `Close` and may announce
/// the next connection at once, which must not find this one still counted here (it would
/// be refused, and its client see the connection closed without an answer).
async fn pump(
    conn: u32,
    target: PathBuf,
    from_relay: mpsc::Receiver<ToConn>,
    to_relay: mpsc::Sender<Vec<u8>>,
) {
    if carry_one(conn, &target, from_relay, &to_relay).await {
        let _ = to_relay
            .send(encode_frame(FrameKind::Close, conn, &[]))
            .await;
    }
}

/// Carries the bytes until either side ends; `false` when the relay's stream is gone (no
/// `Close` is then owed). Takes `from_relay` so that returning drops it.
async fn carry_one(
    conn: u32,
    target: &PathBuf,
    mut from_relay: mpsc::Receiver<ToConn>,
    to_relay: &mpsc::Sender<Vec<u8>>,
) -> bool {
    let Ok(stream) = UnixStream::connect(target).await else {
        return true;
    };
    let (mut read, mut write) = stream.into_split();
    let mut buf = vec![0u8; MAX_PAYLOAD];
    loop {
        tokio::select! {
            n = read.read(&mut buf) => match n {
                Ok(0) | Err(_) => return true,
                Ok(n) => {
                    if to_relay.send(data_frames(conn, &buf[..n])).await.is_err() {
                        return false;
                    }
                }
            },
            msg = from_relay.recv() => match msg {
                Some(ToConn::Data(bytes)) => {
                    if write.write_all(&bytes).await.is_err() {
                        return true;
                    }
                }
                Some(ToConn::Eof) => {
                    let _ = write.shutdown().await;
                }
                // The relay closed its side (or the trial is over).
                None => return true,
            },
        }
    }
}
