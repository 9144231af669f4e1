//! The request body, serialized straight into the connection.
//!
//! A blocking task runs `serde_json::to_writer` into a [`ChunkWriter`] that hands fixed-size
//! chunks to a bounded channel; hyper pulls them as the socket drains. At most
//! `CHANNEL_CHUNKS + 1` chunks exist at once, so the memory a request adds is bounded by a
//! few chunk sizes whatever the history's length — no `String` or `Vec` of the whole body.

use std::io;
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use http_body_util::StreamBody;
use hyper::body::Frame;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::client::request::ChatRequest;

/// Size of one body chunk handed to hyper.
pub const CHUNK_BYTES: usize = 16 * 1024;
/// Chunks that may wait in the channel while the socket is busy.
pub const CHANNEL_CHUNKS: usize = 4;

pub type BodyStream = futures::stream::BoxStream<'static, Result<Frame<Bytes>, io::Error>>;
pub type RequestBody = StreamBody<BodyStream>;

/// Starts serializing `request` and returns the body hyper will send. The handle resolves
/// to the number of bytes written, or the error that stopped the serializer (a closed
/// connection shows up as `BrokenPipe`).
pub fn streaming_body(request: Arc<ChatRequest>) -> (RequestBody, JoinHandle<io::Result<u64>>) {
    let (tx, mut rx) = mpsc::channel::<Result<Frame<Bytes>, io::Error>>(CHANNEL_CHUNKS);
    let handle = tokio::task::spawn_blocking(move || {
        let mut w = ChunkWriter::new(tx.clone());
        let result = serde_json::to_writer(&mut w, request.as_ref())
            .map_err(io::Error::other)
            .and_then(|()| w.finish());
        if let Err(e) = &result
            && e.kind() != io::ErrorKind::BrokenPipe
        {
            // Tell hyper the body is bad rather than letting it send a truncated request.
            let _ = tx.blocking_send(Err(io::Error::new(e.kind(), e.to_string())));
        }
        result
    });
    let stream = futures::stream::poll_fn(move |cx| rx.poll_recv(cx));
    (StreamBody::new(Box::pin(stream) as BodyStream), handle)
}

/// An `io::Write` that cuts its input into `CHUNK_BYTES` pieces and sends each one down a
/// bounded channel, blocking (on a blocking-pool thread) while the channel is full.
pub struct ChunkWriter {
    buf: BytesMut,
    tx: mpsc::Sender<Result<Frame<Bytes>, io::Error>>,
    written: u64,
}

impl ChunkWriter {
    pub fn new(tx: mpsc::Sender<Result<Frame<Bytes>, io::Error>>) -> ChunkWriter {
        ChunkWriter {
            buf: BytesMut::with_capacity(CHUNK_BYTES),
            tx,
            written: 0,
        }
    }

    fn ship(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = self.buf.split().freeze();
        self.buf.reserve(CHUNK_BYTES);
        self.tx.blocking_send(Ok(Frame::data(chunk))).map_err(|_| {
            io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the connection closed while the request was being sent",
            )
        })
    }

    /// Sends what is left and returns the total bytes written.
    pub fn finish(mut self) -> io::Result<u64> {
        self.ship()?;
        Ok(self.written)
    }
}

impl io::Write for ChunkWriter {
    fn write(&mut self, mut data: &[u8]) -> io::Result<usize> {
        let n = data.len();
        while !data.is_empty() {
            let room = CHUNK_BYTES - self.buf.len();
            let take = room.min(data.len());
            self.buf.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.buf.len() >= CHUNK_BYTES {
                self.ship()?;
            }
        }
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
