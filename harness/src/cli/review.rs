//! `nab review export | export-pairwise | import`: blind human review of judge verdicts.

use nab_judges::{ReviewArgs, ReviewOutcome};
use std::process::ExitCode;

pub type Args = ReviewArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
