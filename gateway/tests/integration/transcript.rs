//! A transcript flood over a real Unix socket: huge requests, thousands of refused ones,
//! and more calls than the file has room for. Every line stays under the line cap, the
//! file under its cap plus the reserve, refused requests are one-line summaries, and the
//! usage of every call stays on record. A line is written just after its answer is sent,
//! and shutdown returns only once every answered call's line is in the file.

use crate::common;

use common::*;
use nab_gateway::{
    FixedAnswer, Gateway, GatewayConfig, GatewayLimits, TranscriptCaps, metrics_from_file,
};
use nab_protocol::Omitted;
use serde_json::json;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transcript_flood_stays_within_its_caps_and_keeps_every_calls_usage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(nab_protocol::TRANSCRIPT_FILE);
    let caps = TranscriptCaps {
        line_bytes: 64 << 10,
        file_bytes: 1 << 20,
    };
    let mut cfg = GatewayConfig::new(dir.path().join("llm.sock"), &path);
    cfg.limits = GatewayLimits {
        transcript: caps,
        ..GatewayLimits::default()
    };
    let gw = Gateway::start(cfg, Arc::new(FixedAnswer(completion("ok", 10, 2))))
        .await
        .unwrap();
    let sock = gw.socket_path().to_owned();

    // Requests far over the line cap: forwarded, recorded as a summary with size and hash.
    for i in 0..30 {
        let (status, _) = chat(
            &sock,
            &request("sys", &format!("{i}{}", "a".repeat(200 << 10)), false),
        )
        .await;
        assert_eq!(status, 200);
    }
    // Refused requests, each with a 1 KiB body: a one-line summary each, never a copy.
    let refuse = |n: usize| {
        let sock = sock.clone();
        async move {
            let mut tasks = tokio::task::JoinSet::new();
            for i in 0..n {
                let sock = sock.clone();
                tasks.spawn(async move {
                    let mut r = request("sys", &format!("{i}{}", "b".repeat(1024)), false);
                    r["store"] = json!(true);
                    chat(&sock, &r).await.0
                });
                if tasks.len() >= 8 {
                    assert_eq!(tasks.join_next().await.unwrap().unwrap(), 400);
                }
            }
            while let Some(s) = tasks.join_next().await {
                assert_eq!(s.unwrap(), 400);
            }
        }
    };
    refuse(1000).await;
    // More calls than the file has room for: past the cap they are written without request.
    for i in 0..60 {
        let (status, _) = chat(
            &sock,
            &request("sys", &format!("{i}{}", "c".repeat(20 << 10)), false),
        )
        .await;
        assert_eq!(status, 200);
    }
    // Past the cap, refused requests are only counted.
    refuse(1000).await;
    let in_memory = gw.shutdown().await;

    let size = std::fs::metadata(&path).unwrap().len();
    let text = std::fs::read_to_string(&path).unwrap();
    let longest = text.lines().map(str::len).max().unwrap();
    eprintln!(
        "transcript: {size} bytes (cap {} + reserve), {} lines, longest {longest} bytes",
        caps.file_bytes,
        text.lines().count()
    );
    assert!(
        size <= caps.file_bytes + caps.file_bytes / 16,
        "{size} bytes"
    );
    assert!(
        longest as u64 <= caps.line_bytes,
        "a line of {longest} bytes"
    );

    let lines = transcript(&path);
    let over_line_cap: Vec<Omitted> = lines
        .iter()
        .filter_map(|l| Omitted::of(&l.request))
        .filter(|o| o.reason == "line_cap")
        .collect();
    assert_eq!(over_line_cap.len(), 30);
    assert!(
        over_line_cap
            .iter()
            .all(|o| o.bytes > 200 << 10 && o.sha256.as_ref().is_some_and(|h| h.len() == 64))
    );
    let refused: Vec<_> = lines.iter().filter(|l| l.refused.is_some()).collect();
    assert!(
        !refused.is_empty() && refused.len() < 2000,
        "{} refused lines",
        refused.len()
    );
    for l in &refused {
        assert_eq!(l.refused.as_deref(), Some("not_allowed"));
        let o = Omitted::of(&l.request).expect("a summary, not a copy");
        assert_eq!(o.reason, "refused");
        assert!(o.bytes > 1024);
    }
    assert!(
        lines
            .iter()
            .any(|l| Omitted::of(&l.request).is_some_and(|o| o.reason == "file_cap")),
        "no call was written past the file cap"
    );

    // Every call's usage is on record, in the file as in memory; refusals are not calls.
    let from_file = metrics_from_file(&path).unwrap();
    assert_eq!(in_memory.llm_calls, 90);
    assert_eq!(in_memory.refused_requests, 2000);
    assert_eq!(from_file.llm_calls, 90);
    assert_eq!(from_file.input_tokens, in_memory.input_tokens);
    assert_eq!(from_file.output_tokens, in_memory.output_tokens);
}

/// Lines are written after their answers: a gateway shut down the moment its last answers
/// arrive still has every call in its file and its metrics, each line once, with its
/// request and usage.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_right_after_the_answers_finds_every_line_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(nab_protocol::TRANSCRIPT_FILE);
    let cfg = GatewayConfig::new(dir.path().join("llm.sock"), &path);
    let gw = Gateway::start(cfg, Arc::new(FixedAnswer(completion("ok", 7, 3))))
        .await
        .unwrap();
    let sock = gw.socket_path().to_owned();
    let mut calls = tokio::task::JoinSet::new();
    for i in 0..64 {
        let sock = sock.clone();
        calls.spawn(async move {
            chat(
                &sock,
                &request("sys", &format!("call {i} {}", "x".repeat(4096)), false),
            )
            .await
            .0
        });
    }
    while let Some(status) = calls.join_next().await {
        assert_eq!(status.unwrap(), 200);
    }
    let in_memory = gw.shutdown().await;

    let lines = transcript(&path);
    assert_eq!(lines.len(), 64);
    let mut seqs: Vec<u64> = lines.iter().map(|l| l.seq).collect();
    seqs.sort_unstable();
    assert_eq!(seqs, (0..64).collect::<Vec<u64>>());
    for l in &lines {
        let user = l.request["messages"][1]["content"].as_str().unwrap();
        assert!(user.starts_with("call ") && user.len() > 4096, "{user:.20}");
        assert_eq!(l.usage.as_ref().map(|u| u.total()), Some(10));
        assert!(!l.ts.is_empty());
    }
    assert_eq!(in_memory.llm_calls, 64);
    assert_eq!(in_memory.input_tokens, 64 * 7);
}
