//! `nab-relay` as the harness runs it (the program, its input a pipe), in both its modes:
//! however many connections the agent holds, the relay's own threads stay the same, so an
//! agent that has spent the container's process limit still reaches its model.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nab_protocol::{FrameBuffer, FrameKind};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The threads of process `pid` now.
fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .count()
}

#[test]
fn held_connections_cost_the_relay_no_thread_and_it_still_serves() {
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("llm.sock");
    // The gateway's stand-in (its threads are this process's, not the relay's): it answers
    // "pong" to a connection that says "ping", and keeps the others open.
    let server = UnixListener::bind(&sock).unwrap();
    std::thread::spawn(move || {
        for s in server.incoming() {
            let mut s = s.unwrap();
            std::thread::spawn(move || {
                let mut got = [0u8; 4];
                if s.read_exact(&mut got).is_ok() && &got == b"ping" {
                    s.write_all(b"pong").unwrap();
                    s.shutdown(Shutdown::Write).unwrap();
                }
                let _ = s.read_to_end(&mut Vec::new());
            });
        }
    });
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut relay = Command::new(env!("CARGO_BIN_EXE_nab-relay"))
        .arg("loopback")
        .arg(addr.to_string())
        .arg(&sock)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(relay.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready");

    let ask = |word: &[u8]| {
        let mut c = TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        c.write_all(word).unwrap();
        c.shutdown(Shutdown::Write).unwrap();
        let mut back = String::new();
        c.read_to_string(&mut back).unwrap();
        back
    };
    // One connection served: the relay's threads are all started.
    assert_eq!(ask(b"ping"), "pong");
    let idle = threads(relay.id());
    // Forty connections, each joined to the server and left open.
    let held: Vec<TcpStream> = (0..40).map(|_| TcpStream::connect(addr).unwrap()).collect();
    // Served while they are held (so every one of them had been accepted before it).
    assert_eq!(ask(b"ping"), "pong");
    let busy = threads(relay.id());
    assert_eq!(
        busy, idle,
        "the relay went from {idle} to {busy} threads for 41 connections"
    );

    drop(held);
    assert_eq!(ask(b"ping"), "pong");
    drop(relay.stdin.take());
    assert!(relay.wait().unwrap().success());
}

#[test]
fn the_socket_relay_carries_held_connections_on_the_same_threads() {
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("llm.sock");
    let mut relay = Command::new(env!("CARGO_BIN_EXE_nab-relay"))
        .arg(&sock)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut from_relay = relay.stdout.take().unwrap();
    let mut frames = FrameBuffer::default();
    let mut next = || {
        loop {
            if let Some((h, _)) = frames.next_frame().unwrap() {
                return h.kind;
            }
            let mut buf = [0u8; 4096];
            let n = from_relay.read(&mut buf).unwrap();
            assert!(n > 0, "the relay's output ended");
            frames.push(&buf[..n]);
        }
    };
    assert_eq!(next(), FrameKind::Ready);
    // Its threads are all started before it says it is ready: an agent that spends the
    // process limit from then on cannot keep it from serving.
    let idle = threads(relay.id());
    let first = UnixStream::connect(&sock).unwrap();
    assert_eq!(next(), FrameKind::Open);
    let held: Vec<UnixStream> = (0..40)
        .map(|_| {
            let c = UnixStream::connect(&sock).unwrap();
            assert_eq!(next(), FrameKind::Open);
            c
        })
        .collect();
    let busy = threads(relay.id());
    assert_eq!(
        busy, idle,
        "the relay went from {idle} to {busy} threads for 40 connections"
    );
    drop((first, held));
    drop(relay.stdin.take());
    assert!(relay.wait().unwrap().success());
}
