//! Streamable HTTP servers (`"url"` in the config). No process to own: the link ends when
//! the rmcp session does.

use super::link::{Handler, Launcher, Link, RmcpSession, SessionLink};
use super::{LinkError, RingBuffer, Timings};
use async_trait::async_trait;
use rmcp::transport::StreamableHttpClientTransport;
use std::sync::Arc;

pub struct HttpLauncher {
    pub url: String,
    pub timings: Timings,
    pub ring: RingBuffer,
}

#[async_trait]
impl Launcher for HttpLauncher {
    async fn launch(&self) -> Result<Arc<dyn Link>, LinkError> {
        let handler = Handler::default();
        let transport = StreamableHttpClientTransport::from_uri(self.url.clone());
        let running = tokio::time::timeout(
            self.timings.handshake_timeout,
            rmcp::serve_client(handler.clone(), transport),
        )
        .await
        .map_err(|_| LinkError::NoAnswer {
            peer: format!("from {}", self.url),
            secs: self.timings.handshake_timeout.as_secs_f64(),
        })?
        .map_err(|source| LinkError::PeerHandshake {
            peer: self.url.clone(),
            source,
        })?;
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
