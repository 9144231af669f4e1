//! The `tidemark` command line (`src/bin/tidemark.rs`).

pub mod args;
pub mod commands;

use crate::error::{Error, Result};

pub const USAGE: &str = "tidemark <command> FILE... [options]
commands:
  series FILE...                     every series, with its sample count and time span
  rollup FILE... --select SELECTOR --agg AGG [--across sum|avg|min|max|count]
         [--by LABEL,...] [--step DURATION] [--from TIME] [--to TIME] [--csv]
  export FILE...                     every sample again, in the text format
  stats FILE...                      what the ingest did
options:
  --shards N                         shards to spread series over (default 4)";

/// Runs a command line (without the program name); what it prints.
pub fn run(argv: &[String]) -> Result<String> {
    let (cmd, rest) = match argv.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => return Err(Error::Usage(USAGE.to_string())),
    };
    let args = args::Args::parse(rest)?;
    match cmd {
        "series" => commands::series(&args),
        "rollup" => commands::rollup(&args),
        "export" => commands::export(&args),
        "stats" => commands::stats(&args),
        _ => Err(Error::Usage(USAGE.to_string())),
    }
}
