//! `nab export [--format csv|parquet|atif] [--out DIR] DIR...`: the trials of many runs as
//! three tables (trials, tasks, runs), for analysis outside nab, or each trial's trajectory
//! in ATIF.

use crate::export::{self, Exported, Format};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ExportArgs {
    /// `nab export atif RUN...`: the same as `--format atif`.
    #[command(subcommand)]
    pub kind: Option<ExportKind>,
    /// Run folders (holding results.jsonl) and sweep folders (holding sweep.json, or run
    /// subfolders; each of their runs is read). A folder named `atif` is given as `./atif`.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// The tables' format (every table format has the same columns in the same order), or
    /// `atif`: each trial's trajectory, one JSON file per trial.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Where to write trials.<ext>, tasks.<ext> and runs.<ext> (created if missing;
    /// existing tables of the same format are replaced); default: the current folder, which
    /// keeps the run folders read untouched. With `--format atif`, the folder of
    /// <task>/<trial>.json for one run; default: each run's own atif/ folder, which its
    /// report links.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// What `nab export` writes when named as a word rather than a `--format`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum ExportKind {
    /// Each trial's trajectory in ATIF (Harbor's Agent Trajectory Interchange Format), one
    /// JSON file per trial: `nab export --format atif`.
    ///
    /// Writes <task>/<trial>.json into each run's atif/ folder (which the run's report links;
    /// `nab run` writes it at the end of each run, this rewrites it), or into --out for one
    /// run. Steps: the system prompt,
    /// the task's instruction, one agent step per model call (message, reasoning, tool calls
    /// with their arguments and results, tokens, time); nab's trial record (verdict, tests,
    /// timings) in extra.nab. A trial whose files are refused (a link, a FIFO, too large) is
    /// named and the command exits non-zero after writing the others.
    ///
    /// Example: nab export atif runs/ci
    Atif {
        /// Run folders and sweep folders, as for the tables.
        #[arg(value_name = "DIR", required = true)]
        dirs: Vec<PathBuf>,
        /// The folder of <task>/<trial>.json, for one run; default: each run's atif/.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// Reads the DIRs and writes the tables or the trajectories.
pub fn run(args: &ExportArgs) -> anyhow::Result<Exported> {
    if let Some(ExportKind::Atif { dirs, out }) = &args.kind {
        return Ok(export::export_atif(dirs, out.as_deref())?);
    }
    Ok(match (args.format, &args.out) {
        (Format::Atif, out) => export::export_atif(&args.dirs, out.as_deref())?,
        (f, out) => export::export(
            &args.dirs,
            out.as_deref().unwrap_or(std::path::Path::new(".")),
            f,
        )?,
    })
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
    for f in &e.failed {
        s.push_str(&format!("failed: {f}\n"));
    }
    if !e.failed.is_empty() {
        s.push_str(&format!(
            "{} trial(s) not exported; the others were written\n",
            e.failed.len()
        ));
    }
    s
}
