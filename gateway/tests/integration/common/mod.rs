//! Helpers for the gateway tests: an HTTP/1 client over a real Unix socket, and SSE parsing.
#![allow(dead_code)]

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use nab_protocol::TranscriptLine;
use serde_json::Value;
use std::path::Path;
use tokio::net::UnixStream;

pub async fn send(
    sock: &Path,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> hyper::Response<Incoming> {
    let stream = UnixStream::connect(sock)
        .await
        .expect("connect to the gateway socket");
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let bytes = body.map(|b| b.to_string()).unwrap_or_default();
    let req = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "gateway")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(bytes)))
        .unwrap();
    sender.send_request(req).await.expect("send the request")
}

/// POSTs a chat request and returns the status and the whole body as JSON.
pub async fn chat(sock: &Path, body: &Value) -> (u16, Value) {
    let resp = send(sock, "POST", "/v1/chat/completions", Some(body)).await;
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, json)
}

/// POSTs a streaming chat request and returns the status and the SSE `data:` payloads.
pub async fn chat_stream(sock: &Path, body: &Value) -> (u16, Vec<String>) {
    let resp = send(sock, "POST", "/v1/chat/completions", Some(body)).await;
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, sse_data(&String::from_utf8_lossy(&bytes)))
}

pub fn sse_data(text: &str) -> Vec<String> {
    text.split("\n\n")
        .filter_map(|ev| ev.strip_prefix("data: "))
        .map(str::to_owned)
        .collect()
}

/// The content of the first choice, whether from a completion or from chunks.
pub fn content_of_chunks(events: &[String]) -> String {
    events
        .iter()
        .filter(|e| *e != "[DONE]")
        .filter_map(|e| serde_json::from_str::<Value>(e).ok())
        .filter_map(|c| {
            c["choices"].get(0)?["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect()
}

pub fn transcript(path: &Path) -> Vec<TranscriptLine> {
    nab_protocol::read_jsonl::<TranscriptLine>(path)
        .expect("transcript")
        .records
}

pub fn completion(content: &str, prompt: u64, completion: u64) -> Value {
    serde_json::json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
    })
}

/// An SSE body as an OpenAI-compatible server streams it, text in pieces, usage last.
pub fn sse_body(pieces: &[&str], prompt: u64, completion: u64) -> String {
    let mut out = String::new();
    let chunk = |delta: Value, finish: Value| {
        serde_json::json!({
            "id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
    };
    out.push_str(&format!(
        "data: {}\n\n",
        chunk(serde_json::json!({"role": "assistant"}), Value::Null)
    ));
    for p in pieces {
        out.push_str(&format!(
            "data: {}\n\n",
            chunk(serde_json::json!({"content": p}), Value::Null)
        ));
    }
    out.push_str(&format!(
        "data: {}\n\n",
        chunk(serde_json::json!({}), serde_json::json!("stop"))
    ));
    out.push_str(&format!(
        "data: {}\n\n",
        serde_json::json!({"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}})
    ));
    out.push_str("data: [DONE]\n\n");
    out
}

pub fn request(system: &str, user: &str, stream: bool) -> Value {
    serde_json::json!({
        "model": "agent-model",
        "stream": stream,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "tools": [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}],
        "temperature": 0
    })
}

/// Reads one HTTP request from a raw socket: the headers and the body they announce.
pub async fn read_request(sock: &mut tokio::net::TcpStream) {
    use tokio::io::AsyncReadExt;
    let mut buf = vec![0u8; 65536];
    let mut seen = Vec::new();
    loop {
        let n = sock.read(&mut buf).await.unwrap();
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        if let Some(h) = text.find("\r\n\r\n") {
            let len: usize = text[..h]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .unwrap_or(0);
            if seen.len() >= h + 4 + len || n == 0 {
                break;
            }
        }
    }
}
