//! `nab export [--format csv|parquet] [--out DIR] DIR...`: the trials of many runs as
//! three tables (trials, tasks, runs), for analysis outside nab.

use crate::export::{self, Exported, Format};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct ExportArgs {
    /// Run folders (holding results.jsonl) and sweep folders (holding sweep.json, or run
    /// subfolders; each of their runs is read).
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// The tables' format; every format has the same columns in the same order.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Where to write trials.<ext>, tasks.<ext> and runs.<ext> (created if missing;
    /// existing tables of the same format are replaced). The default, the current folder,
    /// keeps the run folders read untouched.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
}

/// Reads the DIRs and writes the tables.
pub fn run(args: &ExportArgs) -> anyhow::Result<Exported> {
    Ok(export::export(&args.dirs, &args.out, args.format)?)
}

/// A few lines for the terminal: what was read and where it went.
pub fn terminal(e: &Exported) -> String {
    let mut s = format!(
        "exported {} trial(s) of {} run(s)\n",
        e.trials,
        e.runs.len()
    );
    for n in &e.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    for w in &e.written {
        s.push_str(&format!("wrote {}\n", w.display()));
    }
    s
}
