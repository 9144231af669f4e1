//! One HTTP/1.1 connection per model call, over TCP or a Unix socket (hyper 1).
//!
//! A model call lasts seconds to minutes, so a pool saves nothing worth its complexity, and a
//! fresh connection per call means a broken one never poisons the next attempt.

use hyper::body::Incoming;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;

use crate::client::ClientConfig;
use crate::client::body::RequestBody;
use crate::client::endpoint::Endpoint;
use crate::client::error::ClientError;

pub async fn send(
    cfg: &ClientConfig,
    body: RequestBody,
) -> Result<http::Response<Incoming>, ClientError> {
    let mut builder = http::Request::post(cfg.endpoint.completions_path())
        .header(http::header::HOST, cfg.endpoint.host_header())
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "text/event-stream")
        .header(
            http::header::USER_AGENT,
            concat!("nab-agent/", env!("CARGO_PKG_VERSION")),
        );
    if let Some(key) = &cfg.api_key {
        builder = builder.header(http::header::AUTHORIZATION, format!("Bearer {key}"));
    }
    let request = builder
        .body(body)
        .map_err(|e| ClientError::Transport(format!("cannot build the request: {e}")))?;

    match &cfg.endpoint {
        Endpoint::Tcp {
            host, port, tls, ..
        } => {
            let target = cfg.endpoint.host_header();
            let connect = tokio::net::TcpStream::connect((host.as_str(), *port));
            let stream = tokio::time::timeout(cfg.connect_timeout, connect)
                .await
                .map_err(|_| ClientError::Connect {
                    target: target.clone(),
                    source: std::io::Error::new(std::io::ErrorKind::TimedOut, "connect timed out"),
                })?
                .map_err(|source| ClientError::Connect { target, source })?;
            let _ = stream.set_nodelay(true);
            if *tls {
                let stream = crate::client::tls::connect(host, stream).await?;
                exchange(TokioIo::new(stream), request).await
            } else {
                exchange(TokioIo::new(stream), request).await
            }
        }
        Endpoint::Unix { socket, .. } => {
            let stream = tokio::net::UnixStream::connect(socket)
                .await
                .map_err(|source| ClientError::Connect {
                    target: format!("unix://{}", socket.display()),
                    source,
                })?;
            exchange(TokioIo::new(stream), request).await
        }
    }
}

async fn exchange<IO>(
    io: IO,
    request: http::Request<RequestBody>,
) -> Result<http::Response<Incoming>, ClientError>
where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    // A small buffer cap keeps hyper from queueing much of the body when the socket is slow:
    // together with the body channel this bounds what a request adds to memory.
    let (mut sender, conn) = http1::Builder::new()
        .max_buf_size(64 * 1024)
        .writev(true)
        .handshake(io)
        .await
        .map_err(|e| ClientError::Transport(format!("HTTP handshake failed: {e}")))?;
    // The connection task lives until the response body is read to its end.
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            tracing::debug!(error = %e, "model connection closed with an error");
        }
    });
    sender
        .send_request(request)
        .await
        .map_err(|e| ClientError::Transport(format!("sending the request failed: {e}")))
}
