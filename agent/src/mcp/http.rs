//! Streamable HTTP servers (`"url"` in the config). No process to own: the link ends when
//! the rmcp session does.

use super::link::{Handler, Launcher, Link, RmcpSession};
use super::{LinkError, RingBuffer, Timings};
use async_trait::async_trait;
use rmcp::model::{CallToolResult, JsonObject, Tool};
use rmcp::transport::StreamableHttpClientTransport;
use std::sync::Arc;
use tokio::sync::Notify;

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
        .map_err(|source| LinkError::HttpHandshake {
            url: self.url.clone(),
            source,
        })?;
        let session = RmcpSession::new(
            running,
            handler.list_changed.clone(),
            self.timings.call_timeout,
        );
        Ok(Arc::new(HttpLink { session }))
    }

    fn ring(&self) -> RingBuffer {
        self.ring.clone()
    }
}

struct HttpLink {
    session: RmcpSession,
}

#[async_trait]
impl Link for HttpLink {
    async fn list_tools(&self) -> Result<Vec<Tool>, LinkError> {
        self.session.list_tools().await
    }
    async fn call_tool(
        &self,
        tool: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, LinkError> {
        self.session.call_tool(tool, arguments).await
    }
    async fn ping(&self) -> Result<(), LinkError> {
        self.session.ping().await
    }
    async fn closed(&self) -> String {
        self.session.ended().await
    }
    async fn shutdown(&self) {
        self.session.cancel();
    }
    fn list_changed(&self) -> Arc<Notify> {
        self.session.list_changed.clone()
    }
}
