//! Servers behind a Unix socket (`"socket"` in the config): the server runs elsewhere (in
//! nab, a task's MCP server in its sidecar container, reached through the harness), and
//! the socket carries MCP's stdio framing, one JSON-RPC message per line. No process to
//! own: the link ends when the connection does, and a restart connects again.

use super::link::{Handler, Launcher, Link, RmcpSession, SessionLink};
use super::{LinkError, RingBuffer, Timings};
use async_trait::async_trait;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::net::UnixStream;

pub struct SocketLauncher {
    pub path: PathBuf,
    pub timings: Timings,
    pub ring: RingBuffer,
}

#[async_trait]
impl Launcher for SocketLauncher {
    async fn launch(&self) -> Result<Arc<dyn Link>, LinkError> {
        let peer = self.path.display().to_string();
        let no_answer = || LinkError::NoAnswer {
            peer: format!("from {peer}"),
            secs: self.timings.handshake_timeout.as_secs_f64(),
        };
        let handshake = async {
            let stream =
                UnixStream::connect(&self.path)
                    .await
                    .map_err(|source| LinkError::Connect {
                        socket: peer.clone(),
                        source,
                    })?;
            let handler = Handler::default();
            let running = rmcp::serve_client(handler.clone(), stream.into_split())
                .await
                .map_err(|source| LinkError::PeerHandshake {
                    peer: peer.clone(),
                    source,
                })?;
            Ok::<_, LinkError>((running, handler))
        };
        let (running, handler) = tokio::time::timeout(self.timings.handshake_timeout, handshake)
            .await
            .map_err(|_| no_answer())??;
        let session = RmcpSession::new(
            running,
            handler.list_changed.clone(),
            self.timings.call_timeout,
        );
        Ok(Arc::new(SessionLink { session }))
    }

    fn ring(&self) -> RingBuffer {
        self.ring.clone()
    }
}
