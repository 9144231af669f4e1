//! `nab view [DIR]`: writes DIR/index.html, the page over every run and sweep under DIR.

use crate::view::{self, ViewOutputs};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct ViewArgs {
    /// The folder of runs and sweeps to index (searched a few levels down; links are not
    /// followed). Default: runs, where `nab run` and `nab sweep` write.
    #[arg(value_name = "DIR", default_value = "runs")]
    pub dir: PathBuf,
}

/// Builds the index and writes it.
pub fn run(args: &ViewArgs) -> anyhow::Result<ViewOutputs> {
    Ok(view::write_index(&args.dir)?)
}

/// What the binary prints: the count, what was left out, and where the page is.
pub fn terminal(out: &ViewOutputs) -> String {
    let x = &out.index;
    let mut s = format!(
        "{} run(s) under {} ({} of them in {} sweep(s))\n",
        x.runs.len(),
        x.dir,
        x.runs.iter().filter(|r| r.sweep.is_some()).count(),
        x.sweeps.len(),
    );
    for n in &x.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    let missing = x.runs.iter().filter(|r| r.report.is_none()).count();
    if missing > 0 {
        s.push_str(&format!(
            "{missing} run(s) without report.html: the page shows the `nab report --run DIR` that writes each\n"
        ));
    }
    s.push_str(&format!("wrote {}\n", out.html.display()));
    let url = std::path::absolute(&out.html).unwrap_or_else(|_| out.html.clone());
    s.push_str(&format!("open file://{}\n", url.display()));
    s
}
