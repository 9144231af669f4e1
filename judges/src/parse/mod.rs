//! The strict judge-answer parser.
//!
//! An answer is accepted only when it is exactly one JSON object (optionally inside one
//! code fence) with every rubric dimension exactly once, integer scores 1–5, real JSON
//! booleans for vetoes, non-empty evidence of bounded length, no unknown or duplicated
//! fields and no invisible characters. Anything else is a [`Rejection`] whose message is
//! shown to the judge on retry and recorded when the judge gives up.

mod envelope;
pub(crate) mod fields;
mod pairwise;
mod single;

pub use pairwise::{Side, parse_pairwise};
pub use single::parse_single;

/// Longest accepted evidence, in characters.
pub const MAX_EVIDENCE_CHARS: usize = 1_000;
/// Longest accepted answer, in bytes. A judge that writes more is not following the format.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Why an answer was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RejectKind {
    Empty,
    TooLong,
    InvisibleCharacter,
    CodeFence,
    TextBeforeJson,
    NotJson,
    SecondJsonValue,
    TextAfterJson,
    /// Wrong type, unknown or duplicated field, score out of range, non-boolean veto…
    Schema,
    UnknownDimension,
    DuplicateDimension,
    MissingDimension,
    UnknownVeto,
    DuplicateVeto,
    MissingVeto,
    EmptyEvidence,
    OversizedEvidence,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Rejection {
    pub kind: RejectKind,
    pub message: String,
}

impl Rejection {
    pub(crate) fn new(kind: RejectKind, message: impl Into<String>) -> Rejection {
        Rejection {
            kind,
            message: message.into(),
        }
    }
}

/// Characters that render as nothing (or reorder text) and make look-alike ids and keys.
pub(crate) fn invisible_char(s: &str) -> Option<(usize, char)> {
    s.char_indices().find(|(_, c)| {
        matches!(*c as u32,
            0x00AD | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF)
    })
}

pub(crate) fn check_visible(s: &str, what: &str) -> Result<(), Rejection> {
    match invisible_char(s) {
        Some((at, c)) => Err(Rejection::new(
            RejectKind::InvisibleCharacter,
            format!(
                "{what} contains the invisible character U+{:04X} at byte {at}; use plain visible text only",
                c as u32
            ),
        )),
        None => Ok(()),
    }
}

pub(crate) fn check_evidence(evidence: &str, whose: &str) -> Result<(), Rejection> {
    check_visible(evidence, &format!("the evidence for `{whose}`"))?;
    if evidence.trim().is_empty() {
        return Err(Rejection::new(
            RejectKind::EmptyEvidence,
            format!(
                "the evidence for `{whose}` is empty; quote or describe what supports the verdict"
            ),
        ));
    }
    let n = evidence.chars().count();
    if n > MAX_EVIDENCE_CHARS {
        return Err(Rejection::new(
            RejectKind::OversizedEvidence,
            format!(
                "the evidence for `{whose}` is {n} characters; at most {MAX_EVIDENCE_CHARS} are allowed"
            ),
        ));
    }
    Ok(())
}
