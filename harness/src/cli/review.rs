//! `nab review export | export-pairwise | import`: blind human review of judge verdicts.

use nab_judges::cli::review::{ReviewArgs, ReviewCommand, ReviewOutcome};
use std::path::PathBuf;
use std::process::ExitCode;

pub type Args = ReviewArgs;

pub fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    // `--tasks` defaults to ./tasks; when that is not there, use the folder run.json names.
    match &mut args.command {
        ReviewCommand::Export(a) => a.tasks = fallback_tasks(&a.run, &a.tasks)?,
        ReviewCommand::ExportPairwise(a) => a.tasks = fallback_tasks(&a.candidate, &a.tasks)?,
        ReviewCommand::Import(_) => {}
    }
    match nab_judges::cli::review::run(args)? {
        ReviewOutcome::Exported(s) => {
            println!(
                "sampled {} of {} eligible item(s) across {} task(s)",
                s.sampled, s.eligible, s.tasks
            );
            println!("for reviewers: {}", s.form_path.display());
            println!("               {}", s.items_path.display());
            println!("keep private:  {}", s.key_path.display());
        }
        ReviewOutcome::Imported(r) => {
            println!("{}", r.render_markdown());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn fallback_tasks(run: &std::path::Path, given: &std::path::Path) -> anyhow::Result<PathBuf> {
    if given.exists() {
        return Ok(given.to_owned());
    }
    Ok(nab_reports::RunMeta::read(run)?
        .tasks_dir_in(run)
        .filter(|t| t.exists())
        .unwrap_or_else(|| given.to_owned()))
}
