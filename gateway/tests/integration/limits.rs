//! The gateway's limits against a hostile agent, over real Unix sockets: a flood of huge and
//! amplifying bodies on many connections (the gateway runs in a child process whose peak RSS
//! is measured), slowloris headers and bodies, and concurrent calls against a token budget.

use crate::common;

use common::*;
use nab_gateway::{
    Budgets, CallPolicy, FixedAnswer, Gateway, GatewayConfig, GatewayHandle, GatewayLimits,
    Provider,
};
use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn start_with(
    dir: &Path,
    limits: GatewayLimits,
    provider: Arc<dyn Provider>,
) -> GatewayHandle {
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.limits = limits;
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

/// Writes one request by hand: headers, then `total` body bytes in 1 MiB writes from one
/// shared buffer (so the flooding side costs no memory), with a Content-Length or chunked.
/// Returns the status line the gateway answered with, or `None` when it just hung up.
async fn raw_post(sock: &Path, total: usize, fill: &'static [u8], chunked: bool) -> Option<u16> {
    let stream = UnixStream::connect(sock).await.ok()?;
    let (mut rd, mut wr) = stream.into_split();
    let writer = tokio::spawn(async move {
        let head = if chunked {
            "POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n".to_string()
        } else {
            format!(
                "POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\ncontent-length: {total}\r\n\r\n"
            )
        };
        wr.write_all(head.as_bytes()).await?;
        let mut sent = 0;
        while sent < total {
            let n = fill.len().min(total - sent);
            if chunked {
                wr.write_all(format!("{n:x}\r\n").as_bytes()).await?;
            }
            wr.write_all(&fill[..n]).await?;
            if chunked {
                wr.write_all(b"\r\n").await?;
            }
            sent += n;
        }
        if chunked {
            wr.write_all(b"0\r\n\r\n").await?;
        }
        Ok::<_, std::io::Error>(wr)
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match rd.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                if answer.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
            }
        }
    }
    writer.abort();
    let text = String::from_utf8_lossy(&answer);
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Not a test on its own: the gateway process of
/// `a_64_mib_flood_over_many_connections_keeps_the_gateway_far_below_512_mib`, started as a
/// child with NAB_FLOOD_GATEWAY=<dir>. It serves until its stdin closes, then prints its peak
/// RSS.
#[test]
fn flood_gateway_process() {
    let Ok(dir) = std::env::var("NAB_FLOOD_GATEWAY") else {
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        // NAB_FLOOD_UNLIMITED=1 lifts the limits, to see what they save (run by hand).
        let limits = match std::env::var("NAB_FLOOD_UNLIMITED") {
            Ok(_) => GatewayLimits {
                max_request_bytes: 64 << 20,
                max_connections: 1000,
                max_parsed_bytes: u64::from(u32::MAX) << 10,
                ..GatewayLimits::default()
            },
            Err(_) => GatewayLimits::default(),
        };
        let gw = start_with(
            Path::new(&dir),
            limits,
            Arc::new(FixedAnswer(completion("ok", 10, 2))),
        )
        .await;
        println!("ready");
        std::io::stdout().flush().unwrap();
        tokio::task::spawn_blocking(|| {
            let mut sink = String::new();
            while std::io::stdin()
                .read_line(&mut sink)
                .map(|n| n > 0)
                .unwrap_or(false)
            {}
        })
        .await
        .unwrap();
        gw.shutdown().await;
    });
    println!("peak_rss_kib={}", peak_rss_kib());
}

static MIB_OF_SPACES: [u8; 1 << 20] = [b' '; 1 << 20];

/// A valid chat request of about `n` bytes whose body parses into as many values as it can:
/// `[0,0,0,…]` (16 or more times its size as a `Value`).
fn amplifying_request(n: usize) -> &'static [u8] {
    let head = r#"{"model":"m","messages":[{"role":"user","content":"hi"}],"x":["#;
    let mut body = String::with_capacity(n);
    body.push_str(head);
    while body.len() + 4 < n {
        body.push_str("0,");
    }
    body.push_str("0]}");
    Box::leak(body.into_bytes().into_boxed_slice())
}

/// A valid chat request of about `n` bytes of plain text: parsed, and forwarded.
fn big_text_request(n: usize) -> &'static [u8] {
    let body =
        json!({"model": "m", "messages": [{"role": "user", "content": "a".repeat(n)}]}).to_string();
    Box::leak(body.into_bytes().into_boxed_slice())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_64_mib_flood_over_many_connections_keeps_the_gateway_far_below_512_mib() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "limits::flood_gateway_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("NAB_FLOOD_GATEWAY", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("ready") {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "the gateway child did not start"
        );
    }
    let sock = dir.path().join("llm.sock");
    let started = Instant::now();
    const MIB64: usize = 64 << 20;
    let amplifying = amplifying_request((8 << 20) - 1024);
    let text = big_text_request(7 << 20);
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..48 {
        let sock = sock.clone();
        tasks.spawn(async move {
            let kind = i % 4;
            let status = match kind {
                // 64 MiB announced: refused before a byte is read.
                0 => raw_post(&sock, MIB64, &MIB_OF_SPACES, false).await,
                // 64 MiB without a length: cut off at the limit.
                1 => raw_post(&sock, MIB64, &MIB_OF_SPACES, true).await,
                // Just under the limit, but 16x its size once parsed: refused unparsed.
                2 => raw_post(&sock, amplifying.len(), amplifying, false).await,
                // 7 MiB of text: parsed and forwarded, a few at a time.
                _ => raw_post(&sock, text.len(), text, false).await,
            };
            (kind, status)
        });
    }
    let mut seen: Vec<(usize, Option<u16>)> = Vec::new();
    while let Some(r) = tasks.join_next().await {
        seen.push(r.unwrap());
    }
    let elapsed = started.elapsed();
    drop(child.stdin.take());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    let peak_kib: u64 = rest
        .lines()
        .find_map(|l| l.strip_prefix("peak_rss_kib="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no peak RSS in the child's output: {rest}"));
    eprintln!(
        "flood of 48 requests (12 each: 64 MiB announced, 64 MiB chunked, 8 MiB amplifying, 7 MiB text) took {elapsed:?}; the gateway's peak RSS was {} MiB",
        peak_kib / 1024
    );
    let statuses = |k: usize| -> Vec<Option<u16>> {
        seen.iter()
            .filter(|(kind, _)| *kind == k)
            .map(|(_, s)| *s)
            .collect()
    };
    assert!(
        statuses(0).iter().all(|s| *s == Some(413)),
        "{:?}",
        statuses(0)
    );
    assert!(
        statuses(1).iter().all(|s| s.is_none() || *s == Some(413)),
        "{:?}",
        statuses(1)
    );
    assert!(
        statuses(2).iter().all(|s| *s == Some(413)),
        "{:?}",
        statuses(2)
    );
    assert!(
        statuses(3).iter().all(|s| *s == Some(200)),
        "{:?}",
        statuses(3)
    );
    assert!(peak_kib < 200 * 1024, "peak RSS {peak_kib} KiB");
}

fn fast_limits() -> GatewayLimits {
    GatewayLimits {
        max_connections: 2,
        header_timeout: Duration::from_millis(500),
        read_timeout: Duration::from_millis(800),
        ..GatewayLimits::default()
    }
}

/// Sends `bytes` one at a time with `gap` between them, until the gateway hangs up;
/// returns how long it let that go on.
async fn trickle(sock: &Path, bytes: &[u8], gap: Duration) -> Duration {
    let started = Instant::now();
    let mut s = UnixStream::connect(sock).await.unwrap();
    for b in bytes {
        if s.write_all(&[*b]).await.is_err() {
            break;
        }
        tokio::time::sleep(gap).await;
    }
    started.elapsed()
}

#[tokio::test]
async fn slowloris_headers_and_bodies_are_cut_off_and_free_their_connection() {
    let dir = tempfile::tempdir().unwrap();
    let gw = start_with(
        dir.path(),
        fast_limits(),
        Arc::new(FixedAnswer(completion("ok", 10, 2))),
    )
    .await;
    let sock = gw.socket_path().to_owned();

    // Headers one byte every 100 ms: far longer than the 500 ms header timeout.
    let head = b"POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n";
    let took = trickle(&sock, head, Duration::from_millis(100)).await;
    assert!(
        took < Duration::from_secs(3),
        "headers trickled for {took:?}"
    );

    // A connection that sends nothing at all is closed too.
    let started = Instant::now();
    let mut idle = UnixStream::connect(&sock).await.unwrap();
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), idle.read_to_end(&mut buf)).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "an idle connection was kept"
    );

    // Headers at once, then a body that never completes: 408 after the read timeout.
    let mut body = UnixStream::connect(&sock).await.unwrap();
    body.write_all(
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\ncontent-length: 100\r\n\r\n{\"mo",
    )
    .await
    .unwrap();
    let mut answer = String::new();
    let started = Instant::now();
    let _ = tokio::time::timeout(Duration::from_secs(5), body.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request_timeout"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(3));

    // Two slow connections hold both slots; a real request waits for a slot, then succeeds.
    let hold = |sock: std::path::PathBuf| async move {
        let mut s = UnixStream::connect(&sock).await.unwrap();
        s.write_all(b"POST /v1/chat/completions HTTP/1.1\r\n")
            .await
            .unwrap();
        let mut sink = Vec::new();
        let _ = s.read_to_end(&mut sink).await;
    };
    let h1 = tokio::spawn(hold(sock.clone()));
    let h2 = tokio::spawn(hold(sock.clone()));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let (status, reply) = chat(&sock, &request("sys", "hi", false)).await;
    assert_eq!(status, 200, "{reply}");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(300),
        "served at once ({waited:?}): the connection limit did not hold it back"
    );
    assert!(waited < Duration::from_secs(3), "waited {waited:?}");
    h1.await.unwrap();
    h2.await.unwrap();
    gw.shutdown().await;
}

#[tokio::test]
async fn bodies_over_the_limits_get_openai_style_errors_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let limits = GatewayLimits::from_sizes(64 << 10, 4);
    let gw = start_with(
        dir.path(),
        limits,
        Arc::new(FixedAnswer(completion("ok", 10, 2))),
    )
    .await;
    let big = request("sys", &"a".repeat(70 << 10), false);
    let (status, body) = chat(gw.socket_path(), &big).await;
    assert_eq!(status, 413);
    assert_eq!(body["error"]["code"], "request_too_large");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("gateway.max_request_mb")
    );

    let zeros = format!("[{}0]", "0,".repeat(30 << 10));
    let amplifying: Value = serde_json::from_str(&format!(
        r#"{{"model":"m","messages":[{{"role":"user","content":"hi"}}],"x":{zeros}}}"#
    ))
    .unwrap();
    let (status, body) = chat(gw.socket_path(), &amplifying).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["error"]["code"], "request_too_complex");

    let mut deep = json!("x");
    for _ in 0..100 {
        deep = json!([deep]);
    }
    let (status, body) = chat(
        gw.socket_path(),
        &json!({"model": "m", "messages": [], "x": deep}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "request_too_deep");

    // A normal request still goes through.
    let (status, _) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 200);
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_cannot_overrun_the_token_budget() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion("ok", 10, 40))
                .set_delay(Duration::from_millis(150)),
        )
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let mut opts = nab_gateway::ProviderOptions::default();
    opts.env_overrides.insert("NAB_API_KEY".into(), "k".into());
    let provider =
        nab_gateway::build_provider(&format!("openai:m@{}/v1", server.uri()), &opts).unwrap();
    let mut cfg = GatewayConfig::new(
        dir.path().join("llm.sock"),
        dir.path().join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets {
        llm_calls: None,
        tokens: Some(500),
        usd: None,
    };
    cfg.policy = CallPolicy {
        max_retries: 0,
        ..CallPolicy::default()
    };
    let gw = Gateway::start(cfg, provider).await.unwrap();

    // A call that asks for more than the whole budget is refused at once, naming max_tokens.
    let mut greedy = request("sys", "hi", false);
    greedy["max_tokens"] = json!(501);
    let (status, body) = chat(gw.socket_path(), &greedy).await;
    assert_eq!(status, 429);
    assert_eq!(body["error"]["code"], "token_budget");
    assert_eq!(body["error"]["param"], "max_tokens");

    // 30 calls at once, each using 50 tokens: without reservations all 30 would be admitted
    // (1500 tokens); with them, no more than the budget plus one call's overshoot.
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..30 {
        let sock = gw.socket_path().to_owned();
        let mut req = request("sys", &format!("call {i}"), false);
        req["max_tokens"] = json!(40);
        calls.spawn(async move { chat(&sock, &req).await });
    }
    let mut ok = 0;
    let mut refused = 0;
    while let Some(r) = calls.join_next().await {
        let (status, body) = r.unwrap();
        match status {
            200 => ok += 1,
            429 => {
                assert_eq!(body["error"]["code"], "token_budget", "{body}");
                refused += 1;
            }
            s => panic!("unexpected {s}: {body}"),
        }
    }
    let m = gw.shutdown().await;
    eprintln!(
        "{ok} calls admitted, {refused} refused, {} tokens used of 500",
        m.total_tokens()
    );
    assert_eq!(ok + refused, 30);
    assert!(refused > 0);
    assert!(
        m.total_tokens() <= 500 + 50,
        "{} tokens used",
        m.total_tokens()
    );
    assert_eq!(m.llm_calls, ok);
    assert_eq!(server.received_requests().await.unwrap().len() as u64, ok);
}
