//! The gateway: an HTTP server on a Unix socket, one per trial, serving chat completions,
//! Anthropic Messages and OpenAI Responses ([`crate::agent_api`]). It
//! enforces budgets, forwards to the provider through a [`Client`] (retries, timeouts),
//! passes streams through chunk by chunk, and records every exchange.

use crate::agent_api::{AgentApi, EventWriter};
use crate::allowlist;
use crate::assemble::Assembler;
use crate::budget::{Budget, Budgets, Reservation, TokenAsk};
use crate::client::{CallPolicy, Client};
use crate::error::{GatewayError, ProviderError};
use crate::intake::{self, Intake};
use crate::limits::GatewayLimits;
use crate::metrics::TranscriptMetrics;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use crate::recorder::Recorder;
use bytes::Bytes;
use futures::StreamExt;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, StreamBody, combinators::BoxBody};
use hyper::body::{Frame, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use nab_protocol::Usage;
use nab_protocol::{TRANSCRIPT_VERSION, TranscriptLine};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::net::UnixListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// `sun_path` holds 108 bytes including the terminating NUL.
const MAX_SOCKET_PATH: usize = 107;

type Body = BoxBody<Bytes, Infallible>;

/// Where and how one trial's gateway runs.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// The Unix socket to create (mounted into the container as `/nab/llm.sock`).
    pub socket_path: PathBuf,
    /// `transcript.jsonl`, appended to.
    pub transcript_path: PathBuf,
    pub budgets: Budgets,
    /// The rate the `usd` budget prices calls at ([`crate::Prices`]); `None`: the `usd`
    /// budget is not enforced.
    pub price: Option<crate::pricing::Rate>,
    /// What the agent may ask of the gateway (request size, connections, timeouts).
    pub limits: GatewayLimits,
    pub policy: CallPolicy,
    /// How long `shutdown` waits for exchanges in flight before cutting them off.
    pub shutdown_grace: Duration,
    /// The provider's pace, shared with the other gateways that call it (a sweep's
    /// per-provider rpm and cool-down after 429s); None: unpaced.
    pub pace: Option<Arc<crate::pace::Pace>>,
}

impl GatewayConfig {
    pub fn new(socket_path: impl Into<PathBuf>, transcript_path: impl Into<PathBuf>) -> Self {
        GatewayConfig {
            socket_path: socket_path.into(),
            transcript_path: transcript_path.into(),
            budgets: Budgets::default(),
            price: None,
            limits: GatewayLimits::default(),
            policy: CallPolicy::default(),
            shutdown_grace: Duration::from_secs(5),
            pace: None,
        }
    }
}

struct State {
    client: Client,
    recorder: Recorder,
    budget: Arc<Budget>,
    limits: GatewayLimits,
    /// Memory for parsed requests in flight, in KiB ([`intake::parsed_pool`]).
    parsed: Arc<Semaphore>,
    seq: AtomicU64,
    tracker: TaskTracker,
    /// Cancelled when the grace period of a shutdown is over: streams still running end
    /// and are recorded as cut off.
    cancel: CancellationToken,
    describe: String,
    /// The time some call of the trial was with the provider ([`crate::ModelClock`]).
    clock: Arc<crate::ModelClock>,
}

/// Starts gateways.
pub struct Gateway;

/// A running gateway. [`GatewayHandle::shutdown`] stops it and returns the trial's metrics;
/// dropping the handle also stops it. Either way the socket file is removed.
pub struct GatewayHandle {
    socket_path: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
    state: Arc<State>,
}

impl Gateway {
    /// Binds the socket (permissions 0666, so the container's non-root user can connect)
    /// and serves until shut down.
    pub async fn start(
        config: GatewayConfig,
        provider: Arc<dyn Provider>,
    ) -> Result<GatewayHandle, GatewayError> {
        let path = config.socket_path.clone();
        let listener = bind(&path)?;
        let recorder = match Recorder::open(&config.transcript_path, config.limits.transcript) {
            Ok(r) => r,
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                return Err(e);
            }
        };
        let state = Arc::new(State {
            describe: provider.describe(),
            client: Client::new(provider, config.policy.clone()).with_pace(config.pace.clone()),
            recorder,
            budget: Budget::new(config.budgets, config.price),
            parsed: intake::parsed_pool(&config.limits),
            limits: config.limits.clone(),
            seq: AtomicU64::new(0),
            tracker: TaskTracker::new(),
            cancel: CancellationToken::new(),
            clock: crate::ModelClock::new(),
        });
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(serve(
            listener,
            state.clone(),
            stopped,
            path.clone(),
            config.shutdown_grace,
        ));
        Ok(GatewayHandle {
            socket_path: path,
            stop: Some(stop),
            task: Some(task),
            state,
        })
    }
}

impl GatewayHandle {
    pub fn socket_path(&self) -> &Path {
        &self.socket_path
    }

    /// The metrics of the exchanges recorded so far.
    pub fn metrics(&self) -> TranscriptMetrics {
        self.state.recorder.metrics()
    }

    /// The trial's model-time clock: how long some call has been with the provider (from
    /// admission to the end of its answer, retries and backoff included; concurrent calls
    /// once). It keeps counting while the gateway runs.
    pub fn model_clock(&self) -> Arc<crate::ModelClock> {
        self.state.clock.clone()
    }

    /// Stops accepting, lets exchanges in flight finish (up to the grace period), removes
    /// the socket file and returns the trial's metrics.
    pub async fn shutdown(mut self) -> TranscriptMetrics {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        let _ = std::fs::remove_file(&self.socket_path);
        self.state.recorder.metrics()
    }
}

impl Drop for GatewayHandle {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if self.task.is_some() {
            let _ = std::fs::remove_file(&self.socket_path);
        }
    }
}

fn socket_err(path: &Path, message: impl std::fmt::Display) -> GatewayError {
    GatewayError::Socket {
        path: path.to_owned(),
        message: message.to_string(),
    }
}

fn bind(path: &Path) -> Result<UnixListener, GatewayError> {
    let len = path.as_os_str().len();
    if len > MAX_SOCKET_PATH {
        return Err(socket_err(
            path,
            format!(
                "the path is {len} bytes; a Unix socket path may have at most {MAX_SOCKET_PATH}: use a shorter directory"
            ),
        ));
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_socket() {
            return Err(socket_err(
                path,
                "a file that is not a socket is in the way",
            ));
        }
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(socket_err(path, "another gateway is listening on it"));
        }
        // A socket left by a process that died: nobody listens, so it is safe to replace.
        std::fs::remove_file(path)
            .map_err(|e| socket_err(path, format!("cannot remove the stale socket: {e}")))?;
    }
    let listener =
        UnixListener::bind(path).map_err(|e| socket_err(path, format!("cannot bind: {e}")))?;
    if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o666)) {
        let _ = std::fs::remove_file(path);
        return Err(socket_err(
            path,
            format!("cannot make it connectable for the container's user: {e}"),
        ));
    }
    Ok(listener)
}

async fn serve(
    listener: UnixListener,
    state: Arc<State>,
    mut stopped: oneshot::Receiver<()>,
    path: PathBuf,
    grace: Duration,
) {
    let graceful = GracefulShutdown::new();
    let mut conns = JoinSet::new();
    // Connections past the limit wait in the socket's backlog, costing the host nothing.
    let slots = Arc::new(Semaphore::new(state.limits.max_connections.max(1)));
    let next = |slots: Arc<Semaphore>| {
        let listener = &listener;
        async move {
            let slot = slots.acquire_owned().await;
            (slot, listener.accept().await)
        }
    };
    loop {
        tokio::select! {
            Some(_) = conns.join_next(), if !conns.is_empty() => {}
            (slot, accepted) = next(slots.clone()) => {
                let Ok(slot) = slot else { break };
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        tracing::warn!(error = %e, "gateway accept failed");
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                };
                let st = state.clone();
                let svc = service_fn(move |req| handle(st.clone(), req));
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(state.limits.header_timeout)
                    .serve_connection(TokioIo::new(stream), svc);
                let conn = graceful.watch(conn);
                conns.spawn(async move {
                    let _slot: OwnedSemaphorePermit = slot;
                    if let Err(e) = conn.await {
                        tracing::debug!(error = %e, "gateway connection ended with an error");
                    }
                });
            }
            _ = &mut stopped => break,
        }
    }
    drop(listener);
    let _ = std::fs::remove_file(&path);
    let deadline = tokio::time::Instant::now() + grace;
    if tokio::time::timeout_at(deadline, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("gateway connections still open after the grace period; closing them");
    }
    // Past the grace period: cut off what is still running, so that nothing is recorded
    // after `shutdown` returned its metrics.
    state.cancel.cancel();
    state.tracker.close();
    let _ = tokio::time::timeout(Duration::from_secs(2), state.tracker.wait()).await;
    conns.abort_all();
}

fn json_response(status: StatusCode, body: &Value) -> Response<Body> {
    let mut resp = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *resp.status_mut() = status;
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    resp
}

fn error_body(kind: &str, code: &str, message: &str) -> Value {
    json!({"error": {"type": kind, "code": code, "message": message, "param": null}})
}

/// An error answer in the shape of the API the agent spoke; `body` is OpenAI-style.
fn reply_error(api: AgentApi, status: StatusCode, body: Value) -> Response<Body> {
    json_response(status, &api.error_body(status, body))
}

async fn handle(state: Arc<State>, req: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let path = req.uri().path().to_owned();
    let api = AgentApi::at(&path);
    if req.method() == Method::POST
        && let Some(api) = api
    {
        return Ok(chat(state, req, api).await);
    }
    let resp = match (req.method(), path.as_str()) {
        (&Method::GET, "/v1/models" | "/models") => {
            let data: Vec<Value> = state
                .client
                .provider()
                .model()
                .into_iter()
                .map(|id| json!({"id": id, "object": "model", "owned_by": "nab-gateway"}))
                .collect();
            json_response(StatusCode::OK, &json!({"object": "list", "data": data}))
        }
        (m, p) => reply_error(
            api.unwrap_or(AgentApi::ChatCompletions),
            StatusCode::NOT_FOUND,
            error_body(
                "invalid_request_error",
                "not_found",
                &format!(
                    "the gateway serves POST /v1/chat/completions (OpenAI chat completions), POST /v1/messages (Anthropic Messages), POST /v1/responses (OpenAI Responses) and GET /v1/models, not {m} {p}"
                ),
            ),
        ),
    };
    Ok(resp)
}

/// One transcript line in the making. It holds the request's share of the parsed-request
/// pool and its token reservation until it is recorded.
struct Exchange {
    state: Arc<State>,
    /// The API the agent spoke, which its answer is translated into.
    api: AgentApi,
    seq: u64,
    stream: bool,
    request: Value,
    started: Instant,
    /// How a replayed answer's request differs from the recording (volatile tokens only).
    replay_drift: Option<String>,
    reservation: Option<Reservation>,
    _parsed: OwnedSemaphorePermit,
    /// The call's share of the model-time clock, from admission until the exchange is
    /// dropped (after its answer, streamed or not, is recorded).
    _model: Option<crate::model_clock::Busy>,
}

impl Exchange {
    fn record(
        mut self,
        response: Option<Value>,
        usage: Option<Usage>,
        status: Option<u16>,
        retries: u32,
        error: Option<(String, &str)>,
        budget_exceeded: Option<String>,
    ) {
        let (error, error_code) = match error {
            Some((message, code)) => (Some(message), Some(code.to_owned())),
            None => (None, None),
        };
        if let Some(r) = self.reservation.take() {
            r.settle(usage.as_ref());
        }
        let line = TranscriptLine {
            v: TRANSCRIPT_VERSION,
            ts: String::new(),
            seq: self.seq,
            provider: self.state.describe.clone(),
            stream: self.stream,
            api: Some(self.api.name().to_owned()),
            request: std::mem::take(&mut self.request),
            response,
            usage,
            latency_ms: self.started.elapsed().as_millis() as u64,
            status,
            retries,
            error,
            error_code,
            budget_exceeded,
            replay_drift: self.replay_drift.take(),
            refused: None,
        };
        // The call is over for the model-time clock; the parsed request's share of the pool
        // is held until the line is written and the request freed.
        drop(self._model.take());
        record_after_answer(&self.state, line, self._parsed);
    }
}

/// Writes `line` into the transcript once the answer in hand is on its way, then frees it
/// (a parsed request is hundreds of allocations) and `held` with it. Serializing a 6 KB
/// request, the `write` and the frees took some 16 µs of the answer's path; off it, they
/// run on the connection's worker as soon as the connection's task yields, which is after
/// hyper has written the answer (the task waits in that worker's next-task slot).
///
/// The task is the gateway's tracker's, so [`GatewayHandle::shutdown`] waits for it and
/// the metrics it returns count every line; its timestamp is when it is written.
fn record_after_answer<T: Send + 'static>(state: &Arc<State>, mut line: TranscriptLine, held: T) {
    let st = state.clone();
    let write = move || {
        line.ts = nab_protocol::now_rfc3339();
        let written = st.recorder.record(line);
        drop((written, held));
    };
    match tokio::runtime::Handle::try_current() {
        Ok(_) => drop(state.tracker.spawn(async move { write() })),
        Err(_) => write(),
    }
}

/// `POST /v1/chat/completions`, `/v1/messages` or `/v1/responses`: the request is taken
/// in (as a chat request) and admitted, forwarded to the provider, and its answer passed
/// back in the agent's API; every exchange, refused or not, is recorded.
async fn chat(state: Arc<State>, req: Request<Incoming>, api: AgentApi) -> Response<Body> {
    let started = Instant::now();
    let intake = match accept(&state, req, started, api).await {
        Ok(i) => i,
        Err(refusal) => return refusal,
    };
    match admit(&state, intake, started, api).await {
        Ok(ex) => forward(&state, ex).await,
        Err(refusal) => refusal,
    }
}

/// Reads the request within the limits, translates it into a chat request and checks that
/// against the allowlist; a refusal is recorded and its answer returned.
async fn accept(
    state: &Arc<State>,
    req: Request<Incoming>,
    started: Instant,
    api: AgentApi,
) -> Result<Intake, Response<Body>> {
    let mut intake = match intake::take(req.into_body(), &state.limits, &state.parsed).await {
        Ok(i) => i,
        Err(r) => {
            let body = error_body("invalid_request_error", r.code, &r.message);
            refused(state, api, started, r.bytes, false, r.code, r.message);
            return Err(reply_error(api, r.status, body));
        }
    };
    let stream = wants_stream(&intake.request);
    match api.to_chat(std::mem::take(&mut intake.request)) {
        Ok(chat) => intake.request = chat,
        Err(e) => {
            let body = json!({"error": {"type": "invalid_request_error", "code": "invalid_request",
                "message": e.to_string(), "param": e.param}});
            refused(
                state,
                api,
                started,
                Some(intake.bytes),
                stream,
                "invalid_request",
                e.to_string(),
            );
            return Err(reply_error(api, StatusCode::BAD_REQUEST, body));
        }
    }
    if let Err(e) = allowlist::check(&intake.request) {
        let body = e.error_body();
        let stream = wants_stream(&intake.request);
        let bytes = intake.bytes;
        drop(intake.request);
        refused(
            state,
            api,
            started,
            Some(bytes),
            stream,
            "not_allowed",
            e.message,
        );
        return Err(reply_error(api, StatusCode::BAD_REQUEST, body));
    }
    Ok(intake)
}

/// Opens the exchange and asks the budget to admit it (reserving its tokens and a share
/// of the model-time clock); a refusal is recorded and its answer returned.
async fn admit(
    state: &Arc<State>,
    intake: Intake,
    started: Instant,
    api: AgentApi,
) -> Result<Exchange, Response<Body>> {
    let Intake {
        request,
        bytes,
        permit,
    } = intake;
    let ask = TokenAsk {
        max_tokens: max_tokens(&request),
        prompt_estimate: bytes / 4,
    };
    let mut ex = Exchange {
        api,
        seq: state.seq.fetch_add(1, Ordering::SeqCst),
        state: state.clone(),
        stream: wants_stream(&request),
        request,
        started,
        replay_drift: None,
        reservation: None,
        _parsed: permit,
        _model: None,
    };
    match state.budget.admit(ask).await {
        Ok(r) => {
            ex.reservation = Some(r);
            ex._model = Some(state.clock.enter());
            Ok(ex)
        }
        Err(refusal) => {
            let body = refusal.error_body();
            // The refused request is summed up, not copied into the transcript.
            ex.request = refused_summary(Some(bytes));
            ex.record(
                None,
                None,
                None,
                0,
                Some((refusal.message(), "budget_exceeded")),
                Some(refusal.kind.transcript_name().to_owned()),
            );
            Err(reply_error(api, StatusCode::TOO_MANY_REQUESTS, body))
        }
    }
}

/// Sends the admitted request to the provider and answers the agent: the error, the JSON
/// answer, or the stream passed through by [`pump`].
async fn forward(state: &Arc<State>, mut ex: Exchange) -> Response<Body> {
    // Ask for usage in streams: the transcript's token counts must not depend on whether
    // the agent asked for them. The request is changed in place (a copy of a long history
    // is what the limits exist to avoid) and given back as the agent sent it before it is
    // recorded.
    let asked_usage = ex.stream.then(|| UsageAsk::add(&mut ex.request));
    let opened = state.client.open(&ex.request).await;
    if opened.result.is_ok() {
        ex.replay_drift = state.client.provider().replay_drift(&ex.request);
    }
    if let Some(a) = asked_usage {
        a.undo(&mut ex.request);
    }
    let retries = opened.retries;
    let api = ex.api;
    match opened.result {
        Err(e) => {
            let (status, body) = error_for_agent(&e, retries);
            ex.record(
                None,
                None,
                e.status(),
                retries,
                Some((e.to_string(), e.code())),
                None,
            );
            reply_error(api, status, body)
        }
        Ok(ProviderResponse::Json { status, body }) => {
            let usage = body.get("usage").and_then(Usage::from_openai);
            let text = api.answer_text(&body);
            ex.record(Some(body), usage, Some(status), retries, None, None);
            let mut resp = Response::new(Full::new(Bytes::from(text)).boxed());
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                header::HeaderValue::from_static("application/json"),
            );
            resp
        }
        Ok(ProviderResponse::Stream { status, chunks }) => {
            let chunks = state.client.with_idle_timeout(chunks);
            let (tx, rx) = mpsc::channel::<Bytes>(64);
            state
                .tracker
                .spawn(pump(ex, chunks, tx, status, retries, api.stream()));
            event_stream_response(rx)
        }
    }
}

/// An SSE answer whose body is what `pump` sends down `rx`.
fn event_stream_response(rx: mpsc::Receiver<Bytes>) -> Response<Body> {
    let body = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|b| (Ok::<_, Infallible>(Frame::data(b)), rx))
    });
    let mut resp = Response::new(BodyExt::boxed(StreamBody::new(body)));
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/event-stream"),
    );
    h.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    resp
}

/// Passes the provider's chunks to the agent as they come (as events of the agent's API,
/// written by `events`), reassembling them for the transcript; a failure mid-stream becomes
/// an error event and is recorded.
async fn pump(
    ex: Exchange,
    mut chunks: crate::provider::ChunkStream,
    tx: mpsc::Sender<Bytes>,
    status: u16,
    retries: u32,
    mut events: Box<dyn EventWriter>,
) {
    let mut assembler = Assembler::new();
    let mut error: Option<(String, &str)> = None;
    let wait = ex.state.limits.read_timeout;
    loop {
        let item = tokio::select! {
            biased;
            _ = ex.state.cancel.cancelled() => {
                error = Some(("the gateway shut down before the stream ended".into(), "gateway_shutdown"));
                break;
            }
            item = chunks.next() => item,
        };
        let Some(item) = item else { break };
        match item {
            Ok(text) => {
                let chunk = match serde_json::from_str::<Value>(&text) {
                    Ok(chunk) => {
                        assembler.push(&chunk);
                        Some(chunk)
                    }
                    Err(e) => {
                        error.get_or_insert((
                            format!("the provider sent a chunk that is not JSON: {e}"),
                            "invalid_provider_response",
                        ));
                        None
                    }
                };
                let frames = events.chunk(&text, chunk.as_ref());
                if let Err(e) = send_frames(&tx, frames, wait).await {
                    error.get_or_insert(e);
                    break;
                }
            }
            Err(e) => {
                let body = error_body(
                    "upstream_error",
                    e.code(),
                    &format!("{e} (after {retries} retries)"),
                );
                let _ = tx.send(events.error(&body)).await;
                error = Some((e.to_string(), e.code()));
                break;
            }
        }
    }
    if error.is_none() {
        if let Some(e) = assembler.stream_error() {
            error = Some((
                format!("the provider sent an error inside the stream: {e}"),
                "provider_stream_error",
            ));
        }
        let _ = send_frames(&tx, events.end(), wait).await;
    }
    drop(tx);
    let usage = assembler.usage().and_then(Usage::from_openai);
    let response = (assembler.chunk_count() > 0).then(|| assembler.finish());
    ex.record(response, usage, Some(status), retries, error, None);
}

/// Sends `frames` to the agent, each within `wait`; `Err` says why the agent is gone.
async fn send_frames(
    tx: &mpsc::Sender<Bytes>,
    frames: Vec<Bytes>,
    wait: Duration,
) -> Result<(), (String, &'static str)> {
    for frame in frames {
        match tokio::time::timeout(wait, tx.send(frame)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => {
                return Err((
                    "the agent closed the connection mid-stream".into(),
                    "agent_disconnected",
                ));
            }
            Err(_) => {
                return Err((
                    format!(
                        "the agent took no part of the stream for {}s (gateway.read_timeout_s)",
                        wait.as_secs_f64()
                    ),
                    "agent_stalled",
                ));
            }
        }
    }
    Ok(())
}

/// The status and OpenAI-style body telling the agent what could not be recovered.
fn error_for_agent(e: &ProviderError, retries: u32) -> (StatusCode, Value) {
    match e {
        // A request the provider refused and would refuse again (a 4xx such as a context
        // overflow or a bad tool schema, or a 5xx whose body is a validation error): passed
        // on as the provider said it, so the agent sees the server's message and, by the
        // same table, does not retry it.
        ProviderError::Http { status, body, .. } if !e.is_retryable() => {
            let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_REQUEST);
            let parsed = serde_json::from_str::<Value>(body)
                .ok()
                .filter(|v| v.get("error").is_some());
            let body = parsed.unwrap_or_else(|| {
                error_body(
                    "invalid_request_error",
                    "provider_rejected",
                    &nab_protocol::upstream_error_message(body),
                )
            });
            (status, body)
        }
        ProviderError::ReplayMiss(_)
        | ProviderError::ScriptExhausted { .. }
        | ProviderError::SummariesExhausted { .. }
        | ProviderError::InvalidRequest(_)
        | ProviderError::Cassette { .. } => (
            StatusCode::BAD_REQUEST,
            error_body("invalid_request_error", e.code(), &e.to_string()),
        ),
        _ => (
            StatusCode::BAD_GATEWAY,
            error_body(
                "upstream_error",
                e.code(),
                &format!(
                    "the model provider failed and the gateway gave up after {retries} retries: {e}"
                ),
            ),
        ),
    }
}

/// The request's `max_tokens` or `max_completion_tokens` (the smaller when both are given).
fn max_tokens(request: &Value) -> Option<u64> {
    let get = |k: &str| request.get(k).and_then(Value::as_u64);
    match (get("max_tokens"), get("max_completion_tokens")) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `stream_options.include_usage: true` added to a streamed request, and what to put back.
enum UsageAsk {
    /// The request had no `stream_options`.
    AddedOptions,
    /// It had them, with this `include_usage` (or none).
    SetFlag(Option<Value>),
    /// It had `stream_options` that are not an object; left alone.
    Untouched,
}

impl UsageAsk {
    fn add(request: &mut Value) -> UsageAsk {
        let Some(obj) = request.as_object_mut() else {
            return UsageAsk::Untouched;
        };
        match obj.get_mut("stream_options") {
            None => {
                obj.insert("stream_options".into(), json!({"include_usage": true}));
                UsageAsk::AddedOptions
            }
            Some(Value::Object(o)) => {
                UsageAsk::SetFlag(o.insert("include_usage".into(), json!(true)))
            }
            Some(_) => UsageAsk::Untouched,
        }
    }

    fn undo(self, request: &mut Value) {
        let Some(obj) = request.as_object_mut() else {
            return;
        };
        match self {
            // Inserted last, so removing it leaves the other fields in their order.
            UsageAsk::AddedOptions => {
                obj.remove("stream_options");
            }
            UsageAsk::SetFlag(prior) => {
                if let Some(Value::Object(o)) = obj.get_mut("stream_options") {
                    match prior {
                        Some(v) => {
                            o.insert("include_usage".into(), v);
                        }
                        None => {
                            o.remove("include_usage");
                        }
                    }
                }
            }
            UsageAsk::Untouched => {}
        }
    }
}

/// What stands for a refused request in the transcript: its size, never a copy.
fn refused_summary(bytes: Option<u64>) -> Value {
    nab_protocol::Omitted {
        reason: "refused".into(),
        bytes: bytes.unwrap_or(0),
        sha256: None,
    }
    .to_value()
}

/// Records a request the gateway refused before any budget or provider: one short line.
fn refused(
    state: &State,
    api: AgentApi,
    started: Instant,
    bytes: Option<u64>,
    stream: bool,
    code: &str,
    message: String,
) {
    let _ = state.recorder.record(TranscriptLine {
        v: TRANSCRIPT_VERSION,
        ts: nab_protocol::now_rfc3339(),
        seq: state.seq.fetch_add(1, Ordering::SeqCst),
        provider: state.describe.clone(),
        stream,
        api: Some(api.name().to_owned()),
        request: refused_summary(bytes),
        response: None,
        usage: None,
        latency_ms: started.elapsed().as_millis() as u64,
        status: None,
        retries: 0,
        error: Some(nab_protocol::cap_text(&message, 2000)),
        error_code: Some(code.to_owned()),
        budget_exceeded: None,
        replay_drift: None,
        refused: Some(code.to_owned()),
    });
}
