//! A tiny scripted model server for the end-to-end tests: it answers each chat-completions
//! request with the next scripted turn as an SSE stream (rendered by
//! `nab_protocol::ScriptedTurn::to_chunks`) and records every request body.

#![allow(dead_code)]

use std::convert::Infallible;
use std::path::Path;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use nab_protocol::Usage;
use nab_protocol::{ChunkOptions, ScriptedToolCall, ScriptedTurn};
use serde_json::Value;

#[derive(Clone, Default)]
pub struct Recorder {
    pub requests: Arc<Mutex<Vec<Value>>>,
    /// The `authorization` header of each request.
    pub auth: Arc<Mutex<Vec<Option<String>>>>,
}

impl Recorder {
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

pub struct ScriptedServer {
    pub base_url: String,
    pub recorder: Recorder,
}

struct Script {
    turns: Mutex<std::collections::VecDeque<ScriptedTurn>>,
    served: Mutex<u32>,
    recorder: Recorder,
}

/// Serves `$script` on every connection `$listener` (a TCP or Unix listener) accepts.
macro_rules! serve_each_connection {
    ($listener:expr, $script:expr) => {{
        let (listener, script) = ($listener, $script);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                serve(TokioIo::new(stream), script.clone());
            }
        });
    }};
}

impl ScriptedServer {
    /// Serves `turns` on 127.0.0.1 (a random port).
    pub async fn start(turns: Vec<ScriptedTurn>) -> ScriptedServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let (script, recorder) = Script::new(turns);
        serve_each_connection!(listener, script);
        ScriptedServer { base_url, recorder }
    }

    /// Serves `turns` on a Unix socket at `path`.
    pub async fn start_unix(turns: Vec<ScriptedTurn>, path: &Path) -> ScriptedServer {
        let listener = tokio::net::UnixListener::bind(path).unwrap();
        let (script, recorder) = Script::new(turns);
        serve_each_connection!(listener, script);
        ScriptedServer {
            base_url: format!("unix://{}", path.display()),
            recorder,
        }
    }
}

impl Script {
    /// A script of `turns`, and the recorder of the requests it answers.
    fn new(turns: Vec<ScriptedTurn>) -> (Arc<Script>, Recorder) {
        let recorder = Recorder::default();
        let script = Arc::new(Script {
            turns: Mutex::new(turns.into()),
            served: Mutex::new(0),
            recorder: recorder.clone(),
        });
        (script, recorder)
    }
}

/// `nab-agent run` on `workspace` against the scripted model at `base_url`, with
/// `state_dir`; the test adds the rest.
pub fn agent_run(workspace: &Path, base_url: &str, state_dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_nab-agent"));
    cmd.args(["run", "--workspace"])
        .arg(workspace)
        .args(["--base-url", base_url, "--model", "scripted", "--state-dir"])
        .arg(state_dir);
    cmd
}

/// Runs `cmd` off the async threads (the scripted model answers on them); it must
/// succeed. Its output.
pub async fn run_to_success(mut cmd: std::process::Command) -> std::process::Output {
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "exit {:?}; stderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The names of the tools a recorded request offered.
pub fn offered(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect()
}

/// tests/fixtures/`name`, as a string for a command line or a config.
pub fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn serve<IO>(io: IO, script: Arc<Script>)
where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let svc = service_fn(move |req: Request<Incoming>| {
            let script = script.clone();
            async move { Ok::<_, Infallible>(answer(req, &script).await) }
        });
        let _ = http1::Builder::new().serve_connection(io, svc).await;
    });
}

async fn answer(req: Request<Incoming>, script: &Script) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_string();
    let auth = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    script.recorder.auth.lock().unwrap().push(auth);
    let body = req.into_body().collect().await.unwrap().to_bytes();
    let json: Value = serde_json::from_slice(&body).expect("the agent sent invalid JSON");
    script.recorder.requests.lock().unwrap().push(json);
    if !path.ends_with("/chat/completions") {
        return Response::builder()
            .status(404)
            .body(Full::new(Bytes::from("no such path")))
            .unwrap();
    }
    let next = script.turns.lock().unwrap().pop_front();
    let Some(turn) = next else {
        let err = r#"{"error":{"message":"the script has no more turns","type":"invalid_request_error"}}"#;
        return Response::builder()
            .status(400)
            .body(Full::new(Bytes::from(err)))
            .unwrap();
    };
    let n = {
        let mut s = script.served.lock().unwrap();
        *s += 1;
        *s
    };
    let opts = ChunkOptions {
        call_id_prefix: format!("call_{n}_"),
        usage: Some(Usage {
            prompt_tokens: 100,
            completion_tokens: 10,
            cached_tokens: 0,
            cache_write_tokens: 0,
        }),
        ..ChunkOptions::default()
    };
    let sse = turn.to_sse(&opts);
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Full::new(Bytes::from(sse)))
        .unwrap()
}

pub fn call(name: &str, args: Value) -> ScriptedToolCall {
    ScriptedToolCall {
        name: name.into(),
        arguments: args,
    }
}

pub fn tools(calls: Vec<ScriptedToolCall>) -> ScriptedTurn {
    ScriptedTurn {
        content: None,
        reasoning: None,
        tool_calls: calls,
    }
}

pub fn say(text: &str) -> ScriptedTurn {
    ScriptedTurn {
        content: Some(text.into()),
        reasoning: None,
        tool_calls: vec![],
    }
}

/// The tool messages of a recorded request, as (tool_call_id, content).
pub fn tool_messages(request: &Value) -> Vec<(String, String)> {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap().to_string(),
                m["content"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Reads an events file into its lines' JSON values.
pub fn read_events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            nab_protocol::Event::parse_line(l).expect("every event line parses");
            serde_json::from_str(l).unwrap()
        })
        .collect()
}
