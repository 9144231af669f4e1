//! Memory: serializing a request whose history totals 8 MB must add at most 256 KiB of heap
//! beyond the history itself. A counting global allocator tracks live bytes and their peak.
//!
//! Its own test binary (one test) so no other test's allocations are counted.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::Ordering;

use http_body_util::BodyExt;
use nab_agent::streaming_body;
use nab_agent::{ChatRequest, ClientConfig, Endpoint, LlmClient, NoopObserver};
use nab_agent::{Message, ToolCall};
use serde_json::json;

mod counting_alloc;

use counting_alloc::{LIVE, PEAK};

const HISTORY_BYTES: usize = 8 * 1024 * 1024;
const LIMIT: usize = 256 * 1024;

/// About 8 MB of code-like text (quotes, backslashes, newlines and non-ASCII to exercise
/// escaping) in tool results and assistant turns with tool calls.
fn history() -> Vec<Arc<Message>> {
    let line = "    if (s[i] == '\"') { out.push_str(\"\\\\\\\"\"); } // naïve escape\t✓\n";
    let mut msgs = vec![
        Arc::new(Message::system("You are a coding agent.")),
        Arc::new(Message::user("Fix the bug.")),
    ];
    let mut total = 0;
    let mut i = 0;
    while total < HISTORY_BYTES {
        let body: String = line.repeat(64 * 1024 / line.len());
        total += body.len();
        let id = format!("call_{i}");
        msgs.push(Arc::new(Message {
            role: nab_agent::Role::Assistant,
            content: None,
            reasoning: None,
            tool_calls: vec![ToolCall::new(
                id.clone(),
                "read_file",
                format!("{{\"path\":\"src/f{i}.c\"}}"),
            )],
            tool_call_id: None,
        }));
        msgs.push(Arc::new(Message::tool(id, body)));
        i += 1;
    }
    msgs
}

fn request(messages: Vec<Arc<Message>>) -> Arc<ChatRequest> {
    let tools = nab_agent::ToolRegistry::with_builtins().schemas();
    Arc::new(ChatRequest {
        model: "m".into(),
        messages,
        tools: Arc::new(tools),
        max_tokens: None,
        temperature: None,
    })
}

/// A server that reads the whole chunked body into a fixed buffer (so it allocates nothing
/// per byte), then answers with a tiny SSE stream.
async fn sink_server() -> (String, tokio::task::JoinHandle<usize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let handle = tokio::spawn(async move {
        let (mut s, _) = listener.accept().await.unwrap();
        let mut buf = [0u8; 16384];
        let mut tail = [0u8; 5];
        let mut total = 0usize;
        loop {
            let n = s.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            total += n;
            // Keep the last 5 bytes seen to spot the chunked terminator "0\r\n\r\n".
            for &b in &buf[..n] {
                tail.copy_within(1.., 0);
                tail[4] = b;
            }
            if &tail == b"0\r\n\r\n" {
                break;
            }
        }
        let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).await.unwrap();
        s.write_all(body.as_bytes()).await.unwrap();
        total
    });
    (url, handle)
}

#[test]
fn an_8mb_history_serializes_into_the_connection_with_bounded_extra_heap() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let messages = history();
    let text_bytes: usize = messages.iter().map(|m| m.text_len()).sum();
    assert!(text_bytes >= HISTORY_BYTES, "history is {text_bytes} bytes");

    // 1. The body stream alone, drained chunk by chunk.
    let req = request(messages.clone());
    // Warm up once so lazily initialized runtime state (blocking pool threads) is not counted.
    rt.block_on(async {
        let (body, h) = streaming_body(request(vec![Arc::new(Message::user("warm"))]));
        let _ = body.collect().await;
        h.await.unwrap().unwrap();
    });
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let (sent, written) = rt.block_on(async {
        let (mut body, h) = streaming_body(req.clone());
        let mut sent = 0usize;
        while let Some(frame) = body.frame().await {
            sent += frame.unwrap().into_data().unwrap().len();
        }
        (sent, h.await.unwrap().unwrap())
    });
    let body_delta = PEAK.load(Ordering::SeqCst) - base;
    assert_eq!(sent as u64, written);
    assert!(sent > HISTORY_BYTES, "only {sent} bytes serialized");
    println!("body stream: {sent} bytes serialized, peak extra heap {body_delta} bytes");
    assert!(
        body_delta <= LIMIT,
        "serializing added {body_delta} bytes (limit {LIMIT})"
    );

    // 2. The whole client call through a real TCP connection.
    let (url, server) = rt.block_on(sink_server());
    let client = LlmClient::new(ClientConfig::new(Endpoint::parse(&url).unwrap()));
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let out = rt
        .block_on(client.complete(req.clone(), &mut NoopObserver))
        .unwrap();
    let call_delta = PEAK.load(Ordering::SeqCst) - base;
    let received = rt.block_on(server).unwrap();
    assert_eq!(out.turn.content, "ok");
    assert!(received > HISTORY_BYTES, "server got {received} bytes");
    println!("client call: {received} bytes on the wire, peak extra heap {call_delta} bytes");
    assert!(
        call_delta <= LIMIT,
        "the client call added {call_delta} bytes (limit {LIMIT})"
    );

    // 3. The counter is not blind: a naive to_vec of the same request costs the whole body.
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let naive = serde_json::to_vec(req.as_ref()).unwrap();
    let naive_delta = PEAK.load(Ordering::SeqCst) - base;
    assert!(
        naive_delta >= naive.len(),
        "the allocator missed a {} byte Vec",
        naive.len()
    );
    println!("naive serde_json::to_vec: peak extra heap {naive_delta} bytes");
    drop(naive);
    let _ = json!(null);
}
