//! The relay's frames: how Unix-socket connections inside a container travel over one
//! byte stream (the standard input and output of `nab-relay`, exec'd by the harness) to
//! sockets on the harness's machine. A remote engine cannot bind-mount the gateway's or
//! the MCP servers' sockets, so `nab-relay` listens at their paths in the container and
//! the harness connects each connection it is told about to the real socket.
//!
//! A frame is a 9-byte header, `kind` (1 byte), `conn` (u32, big-endian), `len` (u32,
//! big-endian), then `len` bytes of payload, at most [`MAX_PAYLOAD`]. Both ends treat a
//! malformed frame as the end of the stream: the other side is the code under test.

/// Bytes of a frame's header.
pub const RELAY_HEADER: usize = 9;
/// The most bytes one frame carries.
pub const MAX_PAYLOAD: usize = 64 * 1024;

/// What a frame says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameKind {
    /// Relay → harness: every listener is bound; no payload.
    Ready,
    /// Relay → harness: a client connected to listener `u32` (the payload, big-endian).
    Open,
    /// Either way: bytes of connection `conn`.
    Data,
    /// Either way: the sender will write no more on `conn` (a half close).
    Eof,
    /// Either way: `conn` is over; drop it.
    Close,
}

impl FrameKind {
    fn byte(self) -> u8 {
        match self {
            FrameKind::Ready => 1,
            FrameKind::Open => 2,
            FrameKind::Data => 3,
            FrameKind::Eof => 4,
            FrameKind::Close => 5,
        }
    }

    fn from_byte(b: u8) -> Option<FrameKind> {
        Some(match b {
            1 => FrameKind::Ready,
            2 => FrameKind::Open,
            3 => FrameKind::Data,
            4 => FrameKind::Eof,
            5 => FrameKind::Close,
            _ => return None,
        })
    }
}

/// A frame's header, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHeader {
    /// What the frame says.
    pub kind: FrameKind,
    /// The connection it is about (0 for `Ready`).
    pub conn: u32,
    /// Bytes of payload that follow.
    pub len: usize,
}

/// Why a header was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// The kind byte is none of [`FrameKind`].
    #[error("relay frame of unknown kind {0}")]
    Kind(u8),
    /// The payload is longer than [`MAX_PAYLOAD`].
    #[error("relay frame of {0} bytes, more than {MAX_PAYLOAD}")]
    TooLong(usize),
}

/// Decodes a header.
pub fn decode_header(h: &[u8; RELAY_HEADER]) -> Result<FrameHeader, FrameError> {
    let kind = FrameKind::from_byte(h[0]).ok_or(FrameError::Kind(h[0]))?;
    let conn = u32::from_be_bytes([h[1], h[2], h[3], h[4]]);
    let len = u32::from_be_bytes([h[5], h[6], h[7], h[8]]) as usize;
    if len > MAX_PAYLOAD {
        return Err(FrameError::TooLong(len));
    }
    Ok(FrameHeader { kind, conn, len })
}

/// Encodes one frame; `payload` must be at most [`MAX_PAYLOAD`] bytes (longer data is
/// sent as several frames: see [`data_frames`]).
pub fn encode_frame(kind: FrameKind, conn: u32, payload: &[u8]) -> Vec<u8> {
    debug_assert!(payload.len() <= MAX_PAYLOAD);
    let mut out = Vec::with_capacity(RELAY_HEADER + payload.len());
    out.push(kind.byte());
    out.extend_from_slice(&conn.to_be_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// `bytes` as `Data` frames of at most [`MAX_PAYLOAD`] bytes each, in one buffer.
pub fn data_frames(conn: u32, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + RELAY_HEADER);
    for chunk in bytes.chunks(MAX_PAYLOAD) {
        out.extend_from_slice(&encode_frame(FrameKind::Data, conn, chunk));
    }
    out
}

/// Splits whole frames off the front of a buffer that a stream fills piece by piece.
#[derive(Debug, Default)]
pub struct FrameBuffer {
    buf: Vec<u8>,
}

impl FrameBuffer {
    /// Appends bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole frame, if the buffer holds one; an error when its header is bad
    /// (the stream is then unusable).
    pub fn next_frame(&mut self) -> Result<Option<(FrameHeader, Vec<u8>)>, FrameError> {
        let Some(h) = self.buf.first_chunk::<RELAY_HEADER>() else {
            return Ok(None);
        };
        let header = decode_header(h)?;
        if self.buf.len() < RELAY_HEADER + header.len {
            return Ok(None);
        }
        let payload = self.buf[RELAY_HEADER..RELAY_HEADER + header.len].to_vec();
        self.buf.drain(..RELAY_HEADER + header.len);
        Ok(Some((header, payload)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_through_a_buffer_fed_byte_by_byte() {
        let mut wire = encode_frame(FrameKind::Open, 7, &3u32.to_be_bytes());
        wire.extend(data_frames(7, &vec![b'x'; MAX_PAYLOAD + 10]));
        wire.extend(encode_frame(FrameKind::Close, 7, &[]));
        let mut buf = FrameBuffer::default();
        let mut got = Vec::new();
        for b in wire {
            buf.push(&[b]);
            while let Some(f) = buf.next_frame().unwrap() {
                got.push(f);
            }
        }
        let kinds: Vec<_> = got.iter().map(|(h, p)| (h.kind, h.conn, p.len())).collect();
        assert_eq!(
            kinds,
            vec![
                (FrameKind::Open, 7, 4),
                (FrameKind::Data, 7, MAX_PAYLOAD),
                (FrameKind::Data, 7, 10),
                (FrameKind::Close, 7, 0),
            ]
        );
    }

    #[test]
    fn a_forged_header_is_refused_not_trusted() {
        let mut h = [0u8; RELAY_HEADER];
        h[0] = 9;
        assert_eq!(decode_header(&h), Err(FrameError::Kind(9)));
        let mut h = encode_frame(FrameKind::Data, 1, &[]);
        h[5..9].copy_from_slice(&u32::MAX.to_be_bytes());
        let mut buf = FrameBuffer::default();
        buf.push(&h);
        assert!(matches!(buf.next_frame(), Err(FrameError::TooLong(_))));
    }
}
