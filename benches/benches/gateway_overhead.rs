//! The gateway's added latency per request: an agent-sized chat request sent over the Unix
//! socket (keep-alive HTTP/1, as nab-agent does) to a gateway whose provider answers
//! in-process at once, against calling that provider directly. What is left is the
//! gateway's own cost: HTTP parsing, budget check, JSON handling, the transcript line.
//!
//! The gateway serves on a runtime like nab's (two workers); the client runs on a runtime
//! of its own on another thread, as the agent does in its own process. A client on the
//! gateway's workers would wait for them to finish what the gateway does after an answer
//! has gone out (the transcript line), which no agent waits for.
//!
//! Besides criterion's figures, a plain loop prints p50/p99 of the added latency. Its
//! second line measures the same client against a bare HTTP server on a Unix socket (it
//! reads the body and sends back the answer's bytes, nothing else): the floor of HTTP over a
//! socket and the tasks' wake-ups under the first line's figure, which the gateway's own
//! work (parsing, checks, budget, transcript) comes on top of.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use nab_gateway::{FixedAnswer, Gateway, GatewayConfig, Provider};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The in-process provider's one answer: a small completion with a tool call.
fn answer() -> Value {
    json!({
        "id": "c", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok",
            "tool_calls": [{"id": "t", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.py\"}"}}]},
            "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 20}
    })
}

/// A request of a typical mid-trial size: a system prompt, tools, a few turns (~8 KB).
fn agent_request() -> Value {
    let tools: Vec<Value> = ["read_file", "write_file", "edit_file", "list_dir", "grep_code", "execute_command"]
        .iter()
        .map(|n| json!({"type": "function", "function": {"name": n, "description": "x".repeat(200), "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}))
        .collect();
    let mut messages =
        vec![json!({"role": "system", "content": "You are a coding agent. ".repeat(40)})];
    for i in 0..6 {
        messages.push(json!({"role": "user", "content": format!("step {i}: {}", "some tool output line\n".repeat(20))}));
    }
    json!({"model": "m", "stream": false, "messages": messages, "tools": tools})
}

/// Serves `answer` to every request on `sock` after reading its body: no parsing, no
/// checks, no transcript.
async fn bare_server(sock: &Path, answer: Bytes) {
    let listener = tokio::net::UnixListener::bind(sock).expect("bind");
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.expect("accept");
            let answer = answer.clone();
            let svc =
                hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let answer = answer.clone();
                    async move {
                        let _ = req.into_body().collect().await?.to_bytes();
                        let mut resp = hyper::Response::new(Full::new(answer));
                        resp.headers_mut().insert(
                            "content-type",
                            hyper::header::HeaderValue::from_static("application/json"),
                        );
                        Ok::<_, hyper::Error>(resp)
                    }
                });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), svc),
            );
        }
    });
}

async fn connect(sock: &std::path::Path) -> SendRequest<Full<Bytes>> {
    let stream = tokio::net::UnixStream::connect(sock)
        .await
        .expect("connect");
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(conn);
    sender
}

async fn via_gateway(sender: &mut SendRequest<Full<Bytes>>, body: &Bytes) {
    let req = hyper::Request::post("/v1/chat/completions")
        .header("host", "gateway")
        .header("content-type", "application/json")
        .body(Full::new(body.clone()))
        .expect("request");
    // After the previous response the connection needs a moment to be reusable.
    sender.ready().await.expect("connection ready");
    let resp = sender.send_request(req).await.expect("response");
    assert_eq!(resp.status(), 200);
    let _ = resp.into_body().collect().await.expect("body");
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn bench(c: &mut Criterion) {
    // The servers' runtime, shaped as nab's on two processors.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    // The agent's side: another thread with its own I/O driver, as another process.
    let client_rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("client runtime");
    let dir = tempfile::tempdir().expect("tempdir");
    let provider: Arc<dyn Provider> = Arc::new(FixedAnswer(answer()));
    let cfg = GatewayConfig::new(
        dir.path().join("llm.sock"),
        dir.path().join(nab_protocol::TRANSCRIPT_FILE),
    );
    let gw = rt
        .block_on(Gateway::start(cfg, provider.clone()))
        .expect("gateway");
    let bare_sock = dir.path().join("bare.sock");
    rt.block_on(bare_server(&bare_sock, Bytes::from(answer().to_string())));
    let request = agent_request();
    let body = Bytes::from(request.to_string());
    let (mut sender, mut bare) =
        client_rt.block_on(async { (connect(gw.socket_path()).await, connect(&bare_sock).await) });

    // Plain loop: p50/p99 of gateway round trip minus direct provider call; and of the same
    // round trip to the bare server.
    let (mut direct, mut gateway, mut floor) = (Vec::new(), Vec::new(), Vec::new());
    client_rt.block_on(async {
        for _ in 0..200 {
            via_gateway(&mut sender, &body).await;
            via_gateway(&mut bare, &body).await;
        }
        for _ in 0..3000 {
            let t = Instant::now();
            let _ = provider.send(&request).await;
            direct.push(t.elapsed());
            let t = Instant::now();
            via_gateway(&mut sender, &body).await;
            gateway.push(t.elapsed());
            let t = Instant::now();
            via_gateway(&mut bare, &body).await;
            floor.push(t.elapsed());
        }
    });
    direct.sort();
    gateway.sort();
    floor.sort();
    let d50 = percentile(&direct, 0.5);
    eprintln!(
        "gateway_overhead: request {} bytes; direct provider p50 {:?}; via gateway p50 {:?} p99 {:?}; added latency p50 {:?} p99 {:?}",
        body.len(),
        d50,
        percentile(&gateway, 0.5),
        percentile(&gateway, 0.99),
        percentile(&gateway, 0.5).saturating_sub(d50),
        percentile(&gateway, 0.99).saturating_sub(percentile(&direct, 0.99)),
    );
    eprintln!(
        "gateway_overhead: bare HTTP server on a Unix socket p50 {:?} p99 {:?}; the gateway over it p50 {:?} p99 {:?}",
        percentile(&floor, 0.5),
        percentile(&floor, 0.99),
        percentile(&gateway, 0.5).saturating_sub(percentile(&floor, 0.5)),
        percentile(&gateway, 0.99).saturating_sub(percentile(&floor, 0.99)),
    );

    let mut group = c.benchmark_group("gateway_overhead");
    group.bench_function("direct_provider_call", |b| {
        b.to_async(&client_rt)
            .iter(|| async { provider.send(&request).await.expect("answer") })
    });
    let sender = tokio::sync::Mutex::new(sender);
    group.bench_function("via_unix_socket_gateway", |b| {
        b.to_async(&client_rt)
            .iter(|| async { via_gateway(&mut *sender.lock().await, &body).await })
    });
    group.finish();
    rt.block_on(gw.shutdown());
}

criterion_group!(benches, bench);
criterion_main!(benches);
