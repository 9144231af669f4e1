//! A live connection to one MCP server, whatever carries it.
//!
//! The supervisor only sees this trait, so its timing (pings, deaths, restart backoff) is
//! the same for stdio and HTTP servers and can be tested with a paused clock against a fake.

use super::{LinkError, RingBuffer};
use async_trait::async_trait;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, JsonObject, PingRequest, Tool,
};
use rmcp::service::{Peer, RoleClient};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, watch};

#[async_trait]
pub trait Link: Send + Sync {
    async fn list_tools(&self) -> Result<Vec<Tool>, LinkError>;
    async fn call_tool(
        &self,
        tool: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, LinkError>;
    async fn ping(&self) -> Result<(), LinkError>;
    /// Resolves as soon as the server is gone (its process exited or the transport
    /// closed), with the reason.
    async fn closed(&self) -> String;
    /// Ends the server: for stdio its whole process tree.
    async fn shutdown(&self);
    /// Notified when the server sends `notifications/tools/list_changed`.
    fn list_changed(&self) -> Arc<Notify>;
    /// Process IDs this link started (for tests and the leftovers record).
    fn pids(&self) -> Vec<i32> {
        Vec::new()
    }
}

/// Starts a server. Called again for every restart.
#[async_trait]
pub trait Launcher: Send + Sync {
    async fn launch(&self) -> Result<Arc<dyn Link>, LinkError>;
    /// Junk stdout and stderr of every incarnation of this server.
    fn ring(&self) -> RingBuffer;
    /// Ends whatever a `launch` that was abandoned midway (the agent stopping) had started.
    async fn abort(&self) {}
}

/// Notifications and server-initiated requests go to this handler. rmcp answers the
/// server's `ping` requests itself (the default `ClientHandler::ping`).
#[derive(Clone, Default)]
pub struct Handler {
    pub list_changed: Arc<Notify>,
}

impl rmcp::ClientHandler for Handler {
    async fn on_tool_list_changed(&self, _context: rmcp::service::NotificationContext<RoleClient>) {
        self.list_changed.notify_one();
    }

    /// The `initialize` handshake with the newest protocol version that still has one:
    /// what deployed servers (and the suite's fixtures) understand.
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut info = rmcp::model::ClientConfig::default()
            .with_protocol_version(rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE);
        info.client_info.name = "nab-agent".into();
        info.client_info.version = env!("CARGO_PKG_VERSION").into();
        info
    }
}

/// What both transports share once the rmcp service runs: the peer to send requests
/// through and a signal that the service loop has ended.
pub struct RmcpSession {
    pub peer: Peer<RoleClient>,
    pub cancel: std::sync::Mutex<Option<rmcp::service::RunningServiceCancellationToken>>,
    pub ended: watch::Receiver<Option<String>>,
    pub list_changed: Arc<Notify>,
    pub call_timeout: Duration,
}

impl RmcpSession {
    pub fn new(
        running: rmcp::service::RunningService<RoleClient, Handler>,
        list_changed: Arc<Notify>,
        call_timeout: Duration,
    ) -> RmcpSession {
        let peer = running.peer().clone();
        let cancel = running.cancellation_token();
        let (tx, ended) = watch::channel(None);
        tokio::spawn(async move {
            let why = match running.waiting().await {
                Ok(reason) => format!("connection closed ({reason:?})"),
                Err(e) => format!("client task failed: {e}"),
            };
            let _ = tx.send(Some(why));
        });
        RmcpSession {
            peer,
            cancel: std::sync::Mutex::new(Some(cancel)),
            ended,
            list_changed,
            call_timeout,
        }
    }

    pub async fn list_tools(&self) -> Result<Vec<Tool>, LinkError> {
        Ok(self.peer.list_all_tools().await?)
    }

    pub async fn call_tool(
        &self,
        tool: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, LinkError> {
        let mut params = CallToolRequestParams::new(tool.to_string());
        params.arguments = arguments;
        // Dropping the future on timeout cancels the request inside rmcp.
        match tokio::time::timeout(self.call_timeout, self.peer.call_tool(params)).await {
            Ok(r) => Ok(r?),
            Err(_) => Err(LinkError::CallTimeout {
                secs: self.call_timeout.as_secs_f64(),
            }),
        }
    }

    pub async fn ping(&self) -> Result<(), LinkError> {
        self.peer
            .send_request(ClientRequest::PingRequest(PingRequest::default()))
            .await?;
        Ok(())
    }

    pub async fn ended(&self) -> String {
        let mut rx = self.ended.clone();
        loop {
            if let Some(why) = rx.borrow_and_update().clone() {
                return why;
            }
            if rx.changed().await.is_err() {
                return "connection closed".into();
            }
        }
    }

    pub fn cancel(&self) {
        if let Some(c) = self.cancel.lock().unwrap_or_else(|p| p.into_inner()).take() {
            c.cancel();
        }
    }
}

/// A link that is nothing but its rmcp session (HTTP and socket servers: no process of
/// the agent's to own, so the link ends when the session does).
pub struct SessionLink {
    pub session: RmcpSession,
}

#[async_trait]
impl Link for SessionLink {
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
