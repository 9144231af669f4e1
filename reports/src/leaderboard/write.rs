//! Writes `leaderboard.html`, `leaderboard.md` and `leaderboard.json` into one folder, each
//! atomically (a reader never sees half a file).

use super::Leaderboard;
use crate::error::{ReportError, Result};
use crate::output::write_file;
use std::path::{Path, PathBuf};

pub const HTML_FILE: &str = "leaderboard.html";
pub const MARKDOWN_FILE: &str = "leaderboard.md";
pub const JSON_FILE: &str = "leaderboard.json";

#[derive(Debug, Clone, PartialEq)]
pub struct LeaderboardOutputs {
    pub html: PathBuf,
    pub markdown: PathBuf,
    pub json: PathBuf,
}

pub fn write_leaderboard(b: &Leaderboard, out_dir: &Path) -> Result<LeaderboardOutputs> {
    std::fs::create_dir_all(out_dir).map_err(|source| ReportError::Write {
        path: out_dir.to_owned(),
        source,
    })?;
    let out = LeaderboardOutputs {
        html: out_dir.join(HTML_FILE),
        markdown: out_dir.join(MARKDOWN_FILE),
        json: out_dir.join(JSON_FILE),
    };
    let mut json = serde_json::to_vec_pretty(b).map_err(|e| ReportError::Write {
        path: out.json.clone(),
        source: std::io::Error::other(e),
    })?;
    json.push(b'\n');
    // Everything is rendered before anything is written: a render error leaves the old
    // files as they were.
    let html = crate::html::render_leaderboard(b, out_dir)?;
    let md = super::markdown::render(b);
    write_file(&out.json, &json)?;
    write_file(&out.markdown, md.as_bytes())?;
    write_file(&out.html, html.as_bytes())?;
    Ok(out)
}
