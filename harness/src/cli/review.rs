//! `nab review export | export-pairwise | import`: blind human review of judge verdicts.

use nab_judges::cli::review::{ReviewArgs, ReviewCommand, ReviewOutcome};
use std::process::ExitCode;

pub type Args = ReviewArgs;

pub fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    // Without `--tasks`, the suite run.json records (else ./tasks), checked by its hash.
    match &mut args.command {
        ReviewCommand::Export(a) => {
            a.tasks = Some(super::judge::tasks_dir_of(&a.run, a.tasks.take())?)
        }
        ReviewCommand::ExportPairwise(a) => {
            a.tasks = Some(super::judge::tasks_dir_of(&a.candidate, a.tasks.take())?)
        }
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
