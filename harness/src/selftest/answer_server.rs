//! A TCP server on the host that hands the right answer to anyone who connects: what the
//! network attack reaches for. With `network_mode: none` no container can connect, so the
//! answer never arrives; a sandbox with a network would fetch it and pass.

use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

/// Serves `42\n` on every host address until dropped.
pub(crate) struct AnswerServer {
    port: u16,
    task: tokio::task::JoinHandle<()>,
}

impl AnswerServer {
    pub(crate) async fn start() -> std::io::Result<AnswerServer> {
        let listener = TcpListener::bind(("0.0.0.0", 0)).await?;
        let port = listener.local_addr()?.port();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                // Bounded: one short write, and a client that never reads is dropped.
                tokio::spawn(async move {
                    let write = stream.write_all(b"42\n");
                    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), write).await;
                });
            }
        });
        Ok(AnswerServer { port, task })
    }

    pub(crate) fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for AnswerServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
