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
fn a_connection_past_the_cap_waits_until_one_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("llm.sock");
    let Harness {
        mut to_relay,
        mut from_relay,
        mut frames,
        relay: _relay,
    } = Harness::start(vec![path.clone()]);
    // Every frame the relay sends, on a channel, so the test can wait with a timeout.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        loop {
            while let Some((h, p)) = frames.next_frame().unwrap() {
                if tx.send((h.kind, h.conn, p)).is_err() {
                    return;
                }
            }
            let mut buf = [0u8; 4096];
            match from_relay.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => frames.push(&buf[..n]),
            }
        }
    });
    let next = || rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    assert_eq!(next().0, FrameKind::Ready);
    let mut held = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..nab_relay::MAX_CONNECTIONS {
        held.push(UnixStream::connect(&path).unwrap());
        let (kind, conn, _) = next();
        assert_eq!(kind, FrameKind::Open);
        ids.push(conn);
    }
    let mut late = UnixStream::connect(&path).unwrap();
    late.write_all(b"late").unwrap();
    // Nothing of it reaches the harness while every slot is taken ...
    let early = rx.recv_timeout(std::time::Duration::from_millis(300));
    assert!(early.is_err(), "served past the cap: {early:?}");
    // ... until the harness closes one: then it is opened and carried.
    to_relay
        .write_all(&encode_frame(FrameKind::Close, ids[0], &[]))
        .unwrap();
    // (The closed one's own end may be reported on the way: frames of the held ones are
    // passed over.)
    let mut late_frames = std::iter::from_fn(|| Some(next())).filter(|f| !ids.contains(&f.1));
    let (kind, conn, _) = late_frames.next().unwrap();
    assert_eq!(kind, FrameKind::Open);
    assert_eq!(
        late_frames.next().unwrap(),
        (FrameKind::Data, conn, b"late".to_vec())
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

/// A client that stops reading is closed once `CONN_BACKLOG` bytes wait for it, and the
/// harness is told; meanwhile, and after, the other connections' frames go through (they
/// used to wait behind it: the dispatcher blocked on its full queue).
#[test]
fn a_client_that_stops_reading_is_closed_and_holds_up_no_other_connection() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("llm.sock");
    let Harness {
        mut to_relay,
        mut from_relay,
        mut frames,
        relay: _relay,
    } = Harness::start(vec![path.clone()]);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        loop {
            while let Some((h, p)) = frames.next_frame().unwrap() {
                if tx.send((h.kind, h.conn, p)).is_err() {
                    return;
                }
            }
            let mut buf = [0u8; 4096];
            match from_relay.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => frames.push(&buf[..n]),
            }
        }
    });
    let next = || rx.recv_timeout(std::time::Duration::from_secs(20)).unwrap();
    assert_eq!(next().0, FrameKind::Ready);
    let stalled = UnixStream::connect(&path).unwrap();
    let (kind, stalled_id, _) = next();
    assert_eq!(kind, FrameKind::Open);
    let mut other = UnixStream::connect(&path).unwrap();
    let (kind, other_id, _) = next();
    assert_eq!(kind, FrameKind::Open);

    // The harness floods the client that never reads, then answers the other one; its own
    // writes may block while the relay catches up, so they run on a thread of their own.
    let chunk = vec![b'x'; nab_protocol::MAX_PAYLOAD];
    let flood = nab_relay::CONN_BACKLOG / chunk.len() + 16;
    let writer = std::thread::spawn(move || {
        for _ in 0..flood {
            to_relay
                .write_all(&encode_frame(FrameKind::Data, stalled_id, &chunk))
                .unwrap();
        }
        to_relay
            .write_all(&encode_frame(FrameKind::Data, other_id, b"still here"))
            .unwrap();
        to_relay
    });
    other
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut got = [0u8; 10];
    other
        .read_exact(&mut got)
        .expect("the other connection's answer, past the stalled one");
    assert_eq!(&got, b"still here");
    assert_eq!(next(), (FrameKind::Close, stalled_id, Vec::new()));
    let _to_relay = writer.join().unwrap();

    // The stalled client finds its connection closed once it reads, its socket's buffer
    // drained; the other one is still open and carried.
    let mut stalled = stalled;
    stalled
        .set_read_timeout(Some(std::time::Duration::from_secs(20)))
        .unwrap();
    let mut rest = Vec::new();
    stalled.read_to_end(&mut rest).unwrap();
    assert!(rest.len() < nab_relay::CONN_BACKLOG, "{} bytes", rest.len());
    other.write_all(b"next").unwrap();
    assert_eq!(next(), (FrameKind::Data, other_id, b"next".to_vec()));
}
