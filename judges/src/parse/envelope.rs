//! The outside of an answer: size, invisible characters, one optional code fence, and
//! exactly one JSON value with nothing before or after it.

use super::{MAX_ANSWER_BYTES, RejectKind, Rejection, check_visible};
use serde::de::{DeserializeOwned, IgnoredAny};

/// Returns the text of the single JSON object in `raw`.
pub(super) fn json_body(raw: &str) -> Result<&str, Rejection> {
    if raw.len() > MAX_ANSWER_BYTES {
        return Err(Rejection::new(
            RejectKind::TooLong,
            format!(
                "the answer is {} bytes; at most {MAX_ANSWER_BYTES} are accepted",
                raw.len()
            ),
        ));
    }
    check_visible(raw, "the answer")?;
    let text = raw.trim();
    if text.is_empty() {
        return Err(Rejection::new(
            RejectKind::Empty,
            "the answer is empty; answer with the JSON object",
        ));
    }
    let body = unfence(text)?;
    if body.starts_with('[') {
        return Err(Rejection::new(
            RejectKind::Schema,
            "the answer must be a JSON object, not an array",
        ));
    }
    if !body.starts_with('{') {
        let kind = if body.contains('{') {
            RejectKind::TextBeforeJson
        } else {
            RejectKind::NotJson
        };
        return Err(Rejection::new(
            kind,
            "the answer must start with `{`: no text before the JSON object",
        ));
    }
    // Find where the first value ends without interpreting it, then look at what follows.
    let mut stream = serde_json::Deserializer::from_str(body).into_iter::<IgnoredAny>();
    match stream.next() {
        Some(Ok(_)) => {}
        Some(Err(e)) => {
            return Err(Rejection::new(
                RejectKind::NotJson,
                format!("not valid JSON: {e}"),
            ));
        }
        None => return Err(Rejection::new(RejectKind::NotJson, "no JSON value found")),
    }
    let end = stream.byte_offset();
    let rest = body[end..].trim();
    if rest.is_empty() {
        return Ok(&body[..end]);
    }
    if rest.starts_with('{') || rest.starts_with('[') {
        return Err(Rejection::new(
            RejectKind::SecondJsonValue,
            "a second JSON value follows the first; answer with exactly one JSON object",
        ));
    }
    let shown: String = rest.chars().take(40).collect();
    Err(Rejection::new(
        RejectKind::TextAfterJson,
        format!("text after the JSON object ({shown:?}…); answer with the JSON object only"),
    ))
}

/// Strips one code fence (```` ``` ```` or ```` ```json ````) around the whole answer.
fn unfence(text: &str) -> Result<&str, Rejection> {
    let fences = text.matches("```").count();
    if fences == 0 {
        return Ok(text);
    }
    let bad = || {
        Rejection::new(
            RejectKind::CodeFence,
            "only one code fence around the whole answer is accepted (```json … ```), with nothing outside it",
        )
    };
    if fences != 2 || !text.starts_with("```") || !text.ends_with("```") {
        return Err(bad());
    }
    let inner = &text[3..text.len() - 3];
    let (lang, body) = inner.split_once('\n').ok_or_else(bad)?;
    if !(lang.trim().is_empty() || lang.trim().eq_ignore_ascii_case("json")) {
        return Err(bad());
    }
    Ok(body.trim())
}

/// Deserializes `body` as `T`, naming the path of the offending field.
pub(super) fn typed<T: DeserializeOwned>(body: &str) -> Result<T, Rejection> {
    let mut de = serde_json::Deserializer::from_str(body);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        // serde_json appends "at line L column C"; keep it, it helps the judge find the spot.
        let at = if path == "." {
            String::new()
        } else {
            format!("at `{path}`: ")
        };
        Rejection::new(RejectKind::Schema, format!("{at}{inner}"))
    })
}
