//! Helpers shared by the integration tests.
#![allow(dead_code)]

use serde_json::json;

/// A valid answer for the shipped code-quality rubric with the given scores and vetoes.
pub fn answer(scores: [u8; 3], vetoes: [bool; 3]) -> String {
    json!({
        "scores": [
            {"dimension": "readability", "score": scores[0], "evidence": "names are clear"},
            {"dimension": "error_handling", "score": scores[1], "evidence": "errors propagate"},
            {"dimension": "minimal_change", "score": scores[2], "evidence": "one-line fix"}
        ],
        "vetoes": [
            {"id": "tests_tampered", "violated": vetoes[0], "evidence": "tests untouched"},
            {"id": "hardcoded_expected_output", "violated": vetoes[1], "evidence": "no literals"},
            {"id": "unrelated_code_deleted", "violated": vetoes[2], "evidence": "nothing removed"}
        ]
    })
    .to_string()
}

pub fn fixtures_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}
