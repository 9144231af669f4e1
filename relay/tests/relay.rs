//! The relay over real Unix sockets and real pipes, as the harness drives it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nab_protocol::{FrameBuffer, FrameKind, encode_frame};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;

struct Harness {
    to_relay: std::io::PipeWriter,
    from_relay: std::io::PipeReader,
    frames: FrameBuffer,
    relay: std::thread::JoinHandle<std::io::Result<()>>,
}

impl Harness {
    fn start(paths: Vec<PathBuf>) -> Harness {
        let (input, to_relay) = std::io::pipe().unwrap();
        let (from_relay, output) = std::io::pipe().unwrap();
        let relay = std::thread::spawn(move || nab_relay::run(&paths, input, output));
        Harness {
            to_relay,
            from_relay,
            frames: FrameBuffer::default(),
            relay,
        }
    }

    fn next(&mut self) -> (FrameKind, u32, Vec<u8>) {
        loop {
            if let Some((h, p)) = self.frames.next_frame().unwrap() {
                return (h.kind, h.conn, p);
            }
            let mut buf = [0u8; 4096];
            let n = self.from_relay.read(&mut buf).unwrap();
            assert!(n > 0, "the relay's output ended");
            self.frames.push(&buf[..n]);
        }
    }

    fn send(&mut self, kind: FrameKind, conn: u32, payload: &[u8]) {
        self.to_relay
            .write_all(&encode_frame(kind, conn, payload))
            .unwrap();
    }
}

#[test]
fn a_connection_travels_both_ways_and_closes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.sock"), dir.path().join("b.sock"));
    let mut h = Harness::start(vec![a.clone(), b.clone()]);
    assert_eq!(h.next().0, FrameKind::Ready);

    let mut client = UnixStream::connect(&b).unwrap();
    let (kind, conn, listener) = h.next();
    assert_eq!(
        (kind, listener),
        (FrameKind::Open, 1u32.to_be_bytes().to_vec())
    );
    client.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    let mut got = Vec::new();
    while got.len() < 18 {
        let (kind, c, p) = h.next();
        assert_eq!((kind, c), (FrameKind::Data, conn));
        got.extend(p);
    }
    assert_eq!(got, b"GET / HTTP/1.1\r\n\r\n");
    client.shutdown(std::net::Shutdown::Write).unwrap();
    assert_eq!(h.next().0, FrameKind::Eof);

    h.send(FrameKind::Data, conn, b"HTTP/1.1 200 OK\r\n\r\nhi");
    h.send(FrameKind::Close, conn, &[]);
    let mut answer = String::new();
    client.read_to_string(&mut answer).unwrap();
    assert_eq!(answer, "HTTP/1.1 200 OK\r\n\r\nhi");

    // The harness closing its stream ends the relay cleanly.
    drop(h.to_relay);
    h.relay.join().unwrap().unwrap();
}

#[test]
fn connections_past_the_cap_are_closed_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("llm.sock");
    let mut h = Harness::start(vec![path.clone()]);
    assert_eq!(h.next().0, FrameKind::Ready);
    let mut held = Vec::new();
    for _ in 0..nab_relay::MAX_CONNECTIONS {
        held.push(UnixStream::connect(&path).unwrap());
        assert_eq!(h.next().0, FrameKind::Open);
    }
    let mut extra = UnixStream::connect(&path).unwrap();
    let mut buf = [0u8; 1];
    assert_eq!(
        extra.read(&mut buf).unwrap(),
        0,
        "the extra connection is closed"
    );
}

#[test]
fn a_forged_frame_from_the_harness_side_ends_the_relay_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(vec![dir.path().join("x.sock")]);
    assert_eq!(h.next().0, FrameKind::Ready);
    h.to_relay.write_all(&[42, 0, 0, 0, 1, 0, 0, 0, 0]).unwrap();
    let err = h.relay.join().unwrap().unwrap_err();
    assert!(err.to_string().contains("unknown kind 42"), "{err}");
}
