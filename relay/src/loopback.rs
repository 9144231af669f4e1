//! `nab-relay loopback ADDR SOCKET`: the model gateway at an HTTP base URL on the
//! container's loopback, for agents that take a base URL rather than a Unix socket.
//!
//! It listens on a TCP address of the container's own loopback (the container has no other
//! network) and joins each connection to the gateway's Unix socket, byte for byte: the
//! gateway is the one that parses HTTP, so nothing here interprets what the agent sends.
//! The harness execs it as root with no capability (the sandbox user cannot kill it and
//! put a listener of its own in its place), writes `ready` on its standard output once the
//! address is bound, and ends it by closing its standard input.
//!
//! Everything on the TCP side is the code under test: connections are capped (more wait
//! their turn), and a client that stops reading stalls only its own connection. Every
//! connection is served by one thread, on a single-threaded runtime: the container's process
//! limit is the agent's too, and one that has spent it (or holds many connections) must
//! still reach its model.

use std::io::{self, BufRead, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::net::{TcpStream, UnixStream};
use tokio::sync::Semaphore;

/// Connections served at once; more wait until one ends.
pub const MAX_CONNECTIONS: usize = 64;
/// What the program writes, on a line of its own, once it listens.
pub const READY_LINE: &str = "ready";

/// Binds `addr` (a loopback address only: anything else would reach past the sandbox's
/// own network namespace, had it any), says [`READY_LINE`] on `ready`, then joins
/// connections to `socket` until `input` ends.
pub fn run(
    addr: SocketAddr,
    socket: &Path,
    input: impl Read + Send + 'static,
    mut ready: impl Write,
) -> io::Result<()> {
    if !addr.ip().is_loopback() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{addr} is not a loopback address"),
        ));
    }
    let listener =
        TcpListener::bind(addr).map_err(|e| io::Error::new(e.kind(), format!("{addr}: {e}")))?;
    listener.set_nonblocking(true)?;
    // Made before `ready`: nothing the agent does later can keep the relay from starting.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    let socket = socket.to_owned();
    std::thread::Builder::new().spawn(move || runtime.block_on(serve(listener, socket)))?;
    writeln!(ready, "{READY_LINE}")?;
    ready.flush()?;
    wait_for_end(input);
    Ok(())
}

/// Returns when `input` ends (the harness closed it) or fails.
fn wait_for_end(input: impl Read) {
    let mut input = io::BufReader::new(input);
    loop {
        match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buf) => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// Accepts connections and joins each to `socket`. At the cap, the next is accepted only
/// when one ends (it waits in the listener's backlog meanwhile), so a client that holds
/// connections stalls only itself and one that lets them go is served again.
async fn serve(listener: TcpListener, socket: PathBuf) -> io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let socket: Arc<Path> = socket.into();
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let client = match listener.accept().await {
            Ok((client, _)) => client,
            Err(_) => {
                // Out of descriptors, say: wait rather than spin.
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            }
        };
        let socket = socket.clone();
        tokio::spawn(async move {
            join(client, &socket).await;
            drop(slot);
        });
    }
}

/// Carries one connection both ways until both sides have stopped writing (each side's end
/// of writing is passed on to the other as it comes).
async fn join(mut client: TcpStream, socket: &Path) {
    let Ok(mut server) = UnixStream::connect(socket).await else {
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Shutdown, TcpStream};
    use std::os::unix::net::UnixListener;

    /// A server on a Unix socket that answers each connection with what it read, upper-cased.
    fn upper_server(path: &Path) {
        let listener = UnixListener::bind(path).unwrap();
        std::thread::spawn(move || {
            for s in listener.incoming() {
                let mut s = s.unwrap();
                std::thread::spawn(move || {
                    let mut got = Vec::new();
                    s.read_to_end(&mut got).unwrap();
                    s.write_all(&got.to_ascii_uppercase()).unwrap();
                });
            }
        });
    }

    #[test]
    fn joins_tcp_clients_to_the_socket_and_ends_with_its_input() {
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("llm.sock");
        upper_server(&sock);
        // A free port: bind, note it, let go.
        let addr = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let input = ChannelReader(rx);
        let (ready_r, ready_w) = std::io::pipe().unwrap();
        let relay = std::thread::spawn(move || run(addr, &sock, input, ready_w));
        let mut line = String::new();
        io::BufReader::new(ready_r).read_line(&mut line).unwrap();
        assert_eq!(line.trim(), READY_LINE);
        for word in ["hello", "world"] {
            let mut c = TcpStream::connect(addr).unwrap();
            c.write_all(word.as_bytes()).unwrap();
            c.shutdown(Shutdown::Write).unwrap();
            let mut back = String::new();
            c.read_to_string(&mut back).unwrap();
            assert_eq!(back, word.to_uppercase());
        }
        drop(tx);
        relay.join().unwrap().unwrap();
    }

    #[test]
    fn past_the_cap_a_connection_waits_until_one_ends() {
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("llm.sock");
        upper_server(&sock);
        let addr = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let (_tx, rx) = std::sync::mpsc::channel::<()>();
        let (ready_r, ready_w) = std::io::pipe().unwrap();
        std::thread::spawn(move || run(addr, &sock, ChannelReader(rx), ready_w));
        io::BufReader::new(ready_r)
            .read_line(&mut String::new())
            .unwrap();
        // Connections that never finish their request hold every slot.
        let mut held: Vec<TcpStream> = (0..MAX_CONNECTIONS)
            .map(|_| TcpStream::connect(addr).unwrap())
            .collect();
        let mut late = TcpStream::connect(addr).unwrap();
        late.write_all(b"late").unwrap();
        late.shutdown(Shutdown::Write).unwrap();
        late.set_read_timeout(Some(std::time::Duration::from_millis(300)))
            .unwrap();
        let mut back = String::new();
        let waited = late.read_to_string(&mut back).unwrap_err();
        assert_eq!(
            waited.kind(),
            io::ErrorKind::WouldBlock,
            "served past the cap"
        );
        // One lets go: the late one is served.
        held.pop().unwrap().shutdown(Shutdown::Both).unwrap();
        late.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        late.read_to_string(&mut back).unwrap();
        assert_eq!(back, "LATE");
    }

    #[test]
    fn refuses_an_address_off_the_loopback() {
        let e = run(
            "0.0.0.0:0".parse().unwrap(),
            Path::new("/nonexistent"),
            io::empty(),
            io::sink(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a loopback address"), "{e}");
    }

    /// Reads nothing, and ends when the sender is dropped.
    struct ChannelReader(std::sync::mpsc::Receiver<()>);
    impl Read for ChannelReader {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            let _ = self.0.recv();
            Ok(0)
        }
    }
}
