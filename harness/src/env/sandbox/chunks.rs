//! A blocking `Read` over the chunks a backend's `copy_out` sends, so an archive is
//! parsed on a blocking thread as it arrives: no copy of it lands on the host's disk and
//! no parsing runs on the async worker threads.

use bytes::{Buf, Bytes};
use tokio::sync::mpsc::Receiver;

pub struct ChunkReader {
    rx: Receiver<Bytes>,
    current: Bytes,
}

impl ChunkReader {
    pub fn new(rx: Receiver<Bytes>) -> Self {
        ChunkReader {
            rx,
            current: Bytes::new(),
        }
    }
}

impl std::io::Read for ChunkReader {
    /// Must run off the async threads (it blocks until the next chunk arrives).
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.rx.blocking_recv() {
                Some(b) => self.current = b,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.advance(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn reads_the_chunks_in_order_then_ends() {
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        tx.try_send(Bytes::from_static(b"ab")).unwrap();
        tx.try_send(Bytes::new()).unwrap();
        tx.try_send(Bytes::from_static(b"cde")).unwrap();
        drop(tx);
        let mut s = String::new();
        ChunkReader::new(rx).read_to_string(&mut s).unwrap();
        assert_eq!(s, "abcde");
    }
}
