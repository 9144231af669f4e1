//! `nab import harbor SRC_DIR --out tasks/`.

use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    format: Format,
}

#[derive(Debug, Subcommand)]
enum Format {
    /// Harbor (Terminal-Bench 2) task folders: task.toml, instruction.md,
    /// environment/Dockerfile, tests/test.sh with tests/test_*.py, solution/solve.sh.
    /// Prints a table: converted, refused, and why. Existing tasks are never overwritten.
    Harbor {
        /// One Harbor task folder, or a folder of them.
        src: PathBuf,
        /// The suite folder to write the converted tasks into.
        #[arg(long, default_value = "tasks")]
        out: PathBuf,
    },
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.format {
        Format::Harbor { src, out } => {
            let rows = nab_harness::task::import::import_harbor(&src, &out)?;
            print!("{}", nab_harness::task::import::table(&rows));
            let converted: Vec<&str> = rows
                .iter()
                .filter(|r| {
                    matches!(
                        r.outcome,
                        nab_harness::task::import::Outcome::Converted { .. }
                    )
                })
                .map(|r| r.id.as_str())
                .collect();
            if !converted.is_empty() {
                println!(
                    "next: nab validate --tasks {} {}",
                    out.display(),
                    converted.join(" ")
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
