//! `nab import harbor`: converts Harbor-format task folders (the format Terminal-Bench 2
//! uses) into nab tasks, or refuses each with its reasons when the stricter sandbox cannot
//! honour it. See `convert` for the rules; each refusal names what it found and where.
//! Dockerfile steps that build the working directory run at import in a locked-down
//! container (`workdir_build`), their result read back safely (`extract`).

mod convert;
mod dockerfile;
mod extract;
mod harbor_toml;
mod scripts;
mod workdir_build;

pub use convert::convert_one;
pub use workdir_build::Builder;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What became of one source folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The source folder's name.
    pub source: String,
    /// The nab task id (the folder written under `--out`).
    pub id: String,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Converted { notes: Vec<String> },
    Refused { reasons: Vec<String> },
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    #[error("{path}: {message}")]
    Source { path: PathBuf, message: String },
}

/// Converts `src` (one Harbor task folder, or a folder of them) into `out`. Existing task
/// folders in `out` are never overwritten: such a task is refused. A task whose Dockerfile
/// builds files in its working directory has those steps run by `builder` (Docker, reached
/// only then).
pub async fn import_harbor(
    src: &Path,
    out: &Path,
    builder: &Builder,
) -> Result<Vec<Row>, ImportError> {
    let src_err = |message: String| ImportError::Source {
        path: src.to_owned(),
        message,
    };
    if !src.is_dir() {
        return Err(src_err(
            "not a folder; give a Harbor task folder or a folder of them".into(),
        ));
    }
    let folders: Vec<PathBuf> = if src.join("task.toml").is_file() {
        vec![src.to_owned()]
    } else {
        let mut v: Vec<PathBuf> = std::fs::read_dir(src)
            .map_err(|e| src_err(format!("cannot list: {e}")))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                // Never follow a linked folder out of the source tree.
                std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir())
                    && p.join("task.toml").is_file()
            })
            .collect();
        v.sort();
        v
    };
    if folders.is_empty() {
        return Err(src_err(
            "no Harbor task here (a task folder holds task.toml, instruction.md, environment/, tests/, solution/)".into(),
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| ImportError::Source {
        path: out.to_owned(),
        message: format!("cannot create the output folder: {e}"),
    })?;
    let mut rows = Vec::new();
    for f in &folders {
        rows.push(convert_one(f, out, builder).await);
    }
    Ok(rows)
}

/// The table `nab import harbor` prints: one line per task and a count.
pub fn table(rows: &[Row]) -> String {
    let w = rows.iter().map(|r| r.id.len()).max().unwrap_or(4).max(4);
    let mut s = String::new();
    let _ = writeln!(s, "{:<w$}  {:<9}  why", "task", "result");
    for r in rows {
        let (result, why) = match &r.outcome {
            Outcome::Converted { notes } => {
                let mut all = vec!["no wrong/ solutions: nab validate skips that check".to_owned()];
                all.extend(notes.iter().cloned());
                ("converted", all)
            }
            Outcome::Refused { reasons } => ("refused", reasons.clone()),
        };
        let _ = writeln!(
            s,
            "{:<w$}  {:<9}  {}",
            r.id,
            result,
            why.first().map(String::as_str).unwrap_or("")
        );
        for more in why.iter().skip(1) {
            let _ = writeln!(s, "{:<w$}  {:<9}  {more}", "", "");
        }
    }
    let converted = rows
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Converted { .. }))
        .count();
    let _ = writeln!(
        s,
        "{converted} converted, {} refused",
        rows.len() - converted
    );
    s
}
