//! `nab man [--out DIR]`: man pages for nab and each of its commands and subcommands,
//! generated (clap_mangen) from the same clap definitions `nab` parses.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write one page per command and subcommand into DIR (created if missing) instead of
    /// printing nab's own page.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.out {
        Some(dir) => {
            let written = write_pages(&dir)?;
            println!("wrote {} man page(s) to {}", written.len(), dir.display());
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(root()).render(&mut page)?;
            std::io::stdout().lock().write_all(&page)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// nab's command, built (so every subcommand knows its full name, `nab-image-build`), without
/// the `help` subcommand clap adds, which needs no page.
fn root() -> clap::Command {
    let mut cmd = <super::Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Writes the page of every visible command into `dir`; returns the files, parents first.
pub(crate) fn write_pages(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    fn walk(cmd: clap::Command, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        let subs: Vec<clap::Command> = cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
            .collect();
        out.push(clap_mangen::Man::new(cmd).generate_to(dir)?);
        for sub in subs {
            walk(sub, dir, out)?;
        }
        Ok(())
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    walk(root(), dir, &mut out)
        .map_err(|e| anyhow::anyhow!("cannot write man pages to {}: {e}", dir.display()))?;
    Ok(out)
}
