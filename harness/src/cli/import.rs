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
    ///
    /// `RUN` steps that build files in the Dockerfile's working directory (e.g. `sqlite3
    /// /app/shop.db < /app/shop.sql`) run at import, in order with its COPYs, in a
    /// throwaway container of the task's packages image (its apt and pip packages on nab's
    /// base image, built here if missing, on the local Docker engine; the Dockerfile's
    /// other RUN steps never run at import) with nab's lockdown: no network, read-only root
    /// file system, uid 1000, the task's memory and processor limits, the working
    /// directory (as /workspace) a disk quota of the task's storage (default 256 MiB, at
    /// most 1 GiB). What they leave becomes the task's workspace/. A step that fails, times
    /// out, or leaves a link out of the folder, a special file or too much, refuses the
    /// task and says which step (and Dockerfile line) and why. See the book: Writing a
    /// task, "Tasks that build their data".
    Harbor {
        /// One Harbor task folder, or a folder of them.
        src: PathBuf,
        /// The suite folder to write the converted tasks into.
        #[arg(long, default_value = "tasks")]
        out: PathBuf,
        /// Deadline of each working-directory step run at import; past it the step's
        /// container is killed and the task refused.
        #[arg(long, value_name = "SECS", default_value_t = 600)]
        step_timeout: u64,
    },
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.format {
        Format::Harbor {
            src,
            out,
            step_timeout,
        } => {
            let builder = nab_harness::task::import::Builder::new(std::time::Duration::from_secs(
                step_timeout.max(1),
            ));
            let rows = nab_harness::task::import::import_harbor(&src, &out, &builder).await?;
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
