//! Writing an export folder, the same way for trial and pairwise reviews:
//! `<out>/blind/items.jsonl` and `<out>/blind/form.html` for the reviewers, and
//! `<out>/review-key.json` (which item is which trial) for whoever runs the review.
//! Each file is written atomically.

use super::{BLIND_DIR, ExportSummary, FORM_FILE, ITEMS_FILE, KEY_FILE, ReviewKey};
use crate::error::JudgeError;
use serde::Serialize;
use std::path::Path;

/// Writes the three files. `eligible` is how many items the sample was drawn from and
/// `tasks` how many tasks the sample covers; both go into the summary.
pub(super) fn write_export<T: Serialize>(
    out_dir: &Path,
    items: &[T],
    form_html: &str,
    key: &ReviewKey,
    eligible: usize,
    tasks: usize,
) -> Result<ExportSummary, JudgeError> {
    let blind = out_dir.join(BLIND_DIR);
    std::fs::create_dir_all(&blind).map_err(|source| JudgeError::Io {
        path: blind.clone(),
        source,
    })?;
    let io = |e: nab_protocol::WriteError| JudgeError::Io {
        path: e.path,
        source: e.source,
    };
    let items_path = blind.join(ITEMS_FILE);
    nab_protocol::write_jsonl_atomic(&items_path, items).map_err(io)?;
    let form_path = blind.join(FORM_FILE);
    nab_protocol::write_atomic(&form_path, form_html.as_bytes()).map_err(io)?;
    let key_path = out_dir.join(KEY_FILE);
    nab_protocol::write_json_atomic(&key_path, key).map_err(io)?;
    Ok(ExportSummary {
        eligible,
        sampled: items.len(),
        tasks,
        items_path,
        form_path,
        key_path,
    })
}
