//! Reading a request body from the agent within the trial's [`GatewayLimits`]: the cheap
//! checks come first (the announced length, then the length read, then the shape of the
//! JSON), and only a body that passes them is parsed, holding a share of the memory pool
//! for parsed requests until its exchange ends.

use crate::json_scan::{Shape, scan};
use crate::limits::GatewayLimits;
use bytes::BytesMut;
use http::StatusCode;
use http_body_util::BodyExt;
use hyper::body::{Body as _, Incoming};
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// JSON nested deeper than this is refused before parsing (a chat request nests about 10
/// deep, a tool schema a few more).
pub const MAX_DEPTH: u32 = 64;

/// A request that passed the limits.
pub struct Intake {
    pub request: Value,
    /// The body's length in bytes.
    pub bytes: u64,
    /// This request's share of the parsed-request pool, held until its exchange ends.
    pub permit: OwnedSemaphorePermit,
}

/// Why a body was not taken: the status and OpenAI-style `error.code` for the agent.
#[derive(Debug, Clone)]
pub struct Rejected {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// How much of the body was read (or announced), when known.
    pub bytes: Option<u64>,
}

fn rejected(
    status: StatusCode,
    code: &'static str,
    message: String,
    bytes: Option<u64>,
) -> Rejected {
    Rejected {
        status,
        code,
        message,
        bytes,
    }
}

/// The memory pool for parsed requests, counted in KiB (a semaphore's permits are `u32`).
pub fn parsed_pool(limits: &GatewayLimits) -> Arc<Semaphore> {
    Arc::new(Semaphore::new(kib(limits.max_parsed_bytes) as usize))
}

fn kib(bytes: u64) -> u32 {
    bytes.div_ceil(1024).min(u64::from(u32::MAX)) as u32
}

const MIB: f64 = (1 << 20) as f64;

/// Reads, checks and parses one request body.
pub async fn take(
    body: Incoming,
    limits: &GatewayLimits,
    pool: &Arc<Semaphore>,
) -> Result<Intake, Rejected> {
    let bytes = read_within_limits(body, limits).await?;
    let len = bytes.len() as u64;
    let estimate = parsed_size(&bytes, limits)?;
    let permit = reserve_parsed(pool, estimate, len, limits).await?;
    let request = parse_object(&bytes)?;
    Ok(Intake {
        request,
        bytes: len,
        permit,
    })
}

/// The body, refused when it announces or has more than `max_request_bytes`, or does not
/// arrive within the read timeout.
async fn read_within_limits(body: Incoming, limits: &GatewayLimits) -> Result<BytesMut, Rejected> {
    let max = limits.max_request_bytes;
    let too_large = |n: u64, how: &str| {
        rejected(
            StatusCode::PAYLOAD_TOO_LARGE,
            "request_too_large",
            format!(
                "the request body {how} {n} bytes; this trial's gateway takes at most {max} bytes ({:.1} MiB, task.yaml gateway.max_request_mb)",
                max as f64 / MIB
            ),
            Some(n),
        )
    };
    // Content-Length: refused before a byte of the body is read.
    let announced = body.size_hint().lower();
    if announced > max {
        return Err(too_large(announced, "announces"));
    }
    let read = read_body(body, max, announced);
    match tokio::time::timeout(limits.read_timeout, read).await {
        Err(_) => Err(rejected(
            StatusCode::REQUEST_TIMEOUT,
            "request_timeout",
            format!(
                "the request body did not arrive within {}s (task.yaml gateway.read_timeout_s)",
                limits.read_timeout.as_secs_f64()
            ),
            None,
        )),
        Ok(Err(ReadError::TooLarge(n))) => Err(too_large(n, "has more than")),
        Ok(Err(ReadError::Broken(e))) => Err(rejected(
            StatusCode::BAD_REQUEST,
            "unreadable_body",
            format!("cannot read the request body: {e}"),
            None,
        )),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// The memory the body would take once parsed, from a scan of its shape; refused when it
/// nests too deep or would take more than `max_parsed_bytes`.
fn parsed_size(bytes: &[u8], limits: &GatewayLimits) -> Result<u64, Rejected> {
    let len = bytes.len() as u64;
    let shape = scan(bytes);
    if shape.depth > MAX_DEPTH {
        return Err(rejected(
            StatusCode::BAD_REQUEST,
            "request_too_deep",
            format!(
                "the request nests JSON {} levels deep; the gateway takes at most {MAX_DEPTH}",
                shape.depth
            ),
            Some(len),
        ));
    }
    let estimate = shape.estimated_memory(len);
    if estimate > limits.max_parsed_bytes {
        return Err(too_complex(&shape, estimate, len, limits));
    }
    Ok(estimate)
}

/// This request's share (`estimate` bytes) of the parsed-request pool, waited for at most
/// the read timeout.
async fn reserve_parsed(
    pool: &Arc<Semaphore>,
    estimate: u64,
    len: u64,
    limits: &GatewayLimits,
) -> Result<OwnedSemaphorePermit, Rejected> {
    let acquire = pool.clone().acquire_many_owned(kib(estimate));
    match tokio::time::timeout(limits.read_timeout, acquire).await {
        Ok(Ok(p)) => Ok(p),
        Ok(Err(_)) | Err(_) => Err(rejected(
            StatusCode::SERVICE_UNAVAILABLE,
            "gateway_busy",
            format!(
                "the requests in flight hold the gateway's memory for parsed requests ({:.1} MiB) and none finished within {}s; send fewer at once",
                limits.max_parsed_bytes as f64 / MIB,
                limits.read_timeout.as_secs_f64()
            ),
            Some(len),
        )),
    }
}

/// The body parsed; it must be a JSON object.
fn parse_object(bytes: &[u8]) -> Result<Value, Rejected> {
    let len = bytes.len() as u64;
    match serde_json::from_slice(bytes) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(rejected(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            "the request body must be a JSON object".into(),
            Some(len),
        )),
        Err(e) => Err(rejected(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            format!("the request body is not JSON: {e}"),
            Some(len),
        )),
    }
}

enum ReadError {
    /// More than the limit arrived (how many bytes had, when it was stopped).
    TooLarge(u64),
    Broken(hyper::Error),
}

/// Reads the body into one buffer (sized by its Content-Length when it has one), so the
/// pieces are never held twice; stops as soon as it passes `max`.
async fn read_body(mut body: Incoming, max: u64, announced: u64) -> Result<BytesMut, ReadError> {
    let mut buf = BytesMut::with_capacity(announced.min(max) as usize);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(ReadError::Broken)?;
        if let Ok(data) = frame.into_data() {
            if buf.len() as u64 + data.len() as u64 > max {
                return Err(ReadError::TooLarge(buf.len() as u64 + data.len() as u64));
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf)
}

fn too_complex(shape: &Shape, estimate: u64, len: u64, limits: &GatewayLimits) -> Rejected {
    rejected(
        StatusCode::PAYLOAD_TOO_LARGE,
        "request_too_complex",
        format!(
            "the request has {} JSON values in {} containers, about {:.1} MiB once parsed; this trial's gateway parses at most {:.1} MiB of requests at once (four times gateway.max_request_mb)",
            shape.values,
            shape.containers,
            estimate as f64 / MIB,
            limits.max_parsed_bytes as f64 / MIB
        ),
        Some(len),
    )
}
