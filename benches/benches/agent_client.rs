//! nab-agent's client hot paths: serializing a large request into the connection body, and
//! parsing a streamed answer (SSE → chunks → assembled turn).
//!
//! `cargo bench -p nab-benches --bench agent_client`

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use http_body_util::BodyExt;
use nab_agent::client::stream::Patience;
use nab_agent::read_sse_stream;
use nab_agent::streaming_body;
use nab_agent::{ChatRequest, NoopObserver};
use nab_agent::{Message, Role, ToolCall};
use nab_protocol::{ChunkOptions, ScriptedToolCall, ScriptedTurn};

/// About `bytes` of code-like history in tool results, as a long run accumulates.
fn history(bytes: usize) -> Vec<Arc<Message>> {
    let line = "    if (s[i] == '\"') { out.push_str(\"\\\\\\\"\"); } // naïve escape\n";
    let mut msgs = vec![
        Arc::new(Message::system("You are a coding agent.")),
        Arc::new(Message::user("Fix the bug.")),
    ];
    let mut total = 0;
    let mut i = 0;
    while total < bytes {
        let body = line.repeat(64 * 1024 / line.len());
        total += body.len();
        let id = format!("call_{i}");
        msgs.push(Arc::new(Message {
            role: Role::Assistant,
            content: None,
            reasoning: None,
            tool_calls: vec![ToolCall::new(
                id.clone(),
                "read_file",
                format!("{{\"path\":\"f{i}.c\"}}"),
            )],
            tool_call_id: None,
        }));
        msgs.push(Arc::new(Message::tool(id, body)));
        i += 1;
    }
    msgs
}

fn serialization(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let tools = nab_agent::ToolRegistry::with_builtins().schemas();
    let req = Arc::new(ChatRequest {
        model: "m".into(),
        messages: history(8 * 1024 * 1024),
        tools: Arc::new(tools),
        max_tokens: None,
        temperature: None,
    });
    let size = serde_json::to_vec(req.as_ref()).unwrap().len() as u64;
    let mut g = c.benchmark_group("request_serialization");
    g.throughput(Throughput::Bytes(size));
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("streaming_body_8MB_history", |b| {
        b.iter(|| {
            rt.block_on(async {
                let (mut body, h) = streaming_body(req.clone());
                let mut n = 0usize;
                while let Some(frame) = body.frame().await {
                    n += frame.unwrap().into_data().unwrap().len();
                }
                h.await.unwrap().unwrap();
                black_box(n)
            })
        })
    });
    g.bench_function("serde_to_writer_sink_8MB_history (baseline)", |b| {
        b.iter(|| serde_json::to_writer(std::io::sink(), black_box(req.as_ref())).unwrap())
    });
    g.finish();
}

fn sse_parsing(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let turn = ScriptedTurn {
        content: Some("Looking at the failing test, the loop bound is off by one. ".repeat(2000)),
        reasoning: Some("The slice should include the last item of each page. ".repeat(1000)),
        tool_calls: (0..8)
            .map(|i| ScriptedToolCall {
                name: "edit_file".into(),
                arguments: serde_json::json!({"path": format!("src/m{i}.py"), "old": "x".repeat(4000), "new": "y".repeat(4000)}),
            })
            .collect(),
    };
    let opts = ChunkOptions {
        argument_fragments: 200,
        text_piece_chars: 12,
        ..ChunkOptions::default()
    };
    let sse = turn.to_sse(&opts);
    // Deliver it in 4 KiB reads, as a socket would, cutting events at arbitrary points.
    let pieces: Vec<Bytes> = sse
        .as_bytes()
        .chunks(4096)
        .map(Bytes::copy_from_slice)
        .collect();
    let mut g = c.benchmark_group("sse_parsing");
    g.throughput(Throughput::Bytes(sse.len() as u64));
    g.bench_function(
        format!(
            "{}_events_{}KB",
            sse.matches("data: ").count(),
            sse.len() / 1024
        ),
        |b| {
            b.iter(|| {
                rt.block_on(async {
                    let stream =
                        futures::stream::iter(pieces.iter().cloned().map(Ok::<_, std::io::Error>));
                    let turn = read_sse_stream(
                        stream,
                        Patience::uniform(Duration::from_secs(5)),
                        &mut NoopObserver,
                    )
                    .await
                    .unwrap();
                    assert_eq!(turn.tool_calls.len(), 8);
                    black_box(turn)
                })
            })
        },
    );
    g.finish();
}

criterion_group!(benches, serialization, sse_parsing);
criterion_main!(benches);
