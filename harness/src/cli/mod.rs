//! Subcommands, one file each. Adding one is a file plus one enum variant.

mod agent_images;
mod bundle;
mod clean;
mod common;
mod compare;
mod completions;
mod docs;
mod export;
mod gate;
mod image;
mod import;
mod judge;
mod leaderboard;
mod man;
mod merge;
mod regrade;
mod report;
mod review;
mod run;
mod run_meta;
mod selftest;
mod shard_opts;
mod sweep;
mod validate;
mod view;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "nab",
    version,
    about = "Native AgentBench: run coding agents in locked-down containers and verify them with hidden tests",
    after_help = nab_harness::exit::HELP
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check every task: fields, files, oracle passes, null agent and known-wrong solutions fail.
    ///
    /// Each check reads its task's files when it starts: a task whose folder changed while its
    /// checks ran is reported as a problem, and nothing of it is recorded in tests.lock.
    Validate(validate::Args),
    /// Run an agent on tasks and record one result per trial.
    Run(run::Args),
    /// Remove containers and volumes left behind by nab (found by label).
    Clean(clean::Args),
    /// Manage nab's images: the base image, the task images built from `environment:` and
    /// the declared agents' images.
    Image(image::Args),
    /// Convert tasks written in another harness's format into nab tasks.
    Import(import::Args),
    /// Grade (or re-grade) the trials of a finished run with LLM judges.
    Judge(judge::Args),
    /// Blind human review of judge verdicts: export a sample, import verdicts, report agreement.
    Review(review::Args),
    /// Join the run folders of `nab run --shard K/N` into one run folder and its report.
    Merge(merge::Args),
    /// (Re)write a run's results.parquet, summary.json and report.html.
    Report(report::Args),
    /// Compare two runs: paired statistics, per-task deltas, optional pairwise judge; writes compare.html.
    Compare(compare::Args),
    /// CI gate: exit non-zero when the candidate run is worse than the baseline.
    Gate(gate::Args),
    /// Rank runs and sweeps on their common tasks; writes leaderboard.html, .md and .json.
    ///
    /// One row per run (agent/model pair): pass rate (every trial counts, an infrastructure
    /// error as not passed) with a 95% Wilson interval and the rate over scored trials beside
    /// it, pass@k and pass^k, per-category pass rates, tokens, dollar cost per task and per
    /// solved task, agent time (own and waiting for the model), error rate; a task × model
    /// matrix whose cells open that trial in the run's report; pass rate against cost per
    /// task with its Pareto front. Every figure on a page uses one task set, the tasks every
    /// run has (named on the page). Every pair of rows is compared with the exact sign-flip
    /// test over those tasks, Holm-corrected over the matrix, and the rank intervals are read
    /// off that matrix: they hold every row's true rank at once with probability at least
    /// 95%. A sweep folder counts as all its runs. Runs of different subsets of one suite
    /// (every shared task with the same files, run.json task_hashes) are ranked on the tasks
    /// they share, and the page says so; runs of different task sets or suite versions
    /// otherwise are refused unless --allow-mixed, which the pages then state.
    ///
    /// Example: nab leaderboard runs/sweep-1 --out runs/sweep-1
    Leaderboard(leaderboard::Args),
    /// Export runs and sweeps as tables for analysis (trials, tasks and runs, in CSV or
    /// Parquet), or each trial's trajectory in ATIF.
    ///
    /// Writes trials.<ext> (one row per trial of every run: the run folder, results.parquet's
    /// columns, then the record's other fields), tasks.<ext> (one row per run and task: trials,
    /// passed, failed, errors, pass rate, mean tokens, cost and time) and runs.<ext> (one row per
    /// run: agent, model, dates, tasks, trials, pass rate with its 95% interval, error rate,
    /// tokens, cost; summary.json's figures). CSV and Parquet have the same columns in the same
    /// order; in CSV an empty cell is an absent value and a list is a JSON array. A sweep folder
    /// counts as all its runs. Every trial is a row, a quarantined task's marked; a bad run
    /// folder (a results.jsonl that is a link, a FIFO, too large or with a garbage line) stops
    /// the export, naming the file, and nothing is written.
    ///
    /// With --format atif (or `nab export atif DIR...`) it writes each trial's trajectory in
    /// ATIF, Harbor's Agent Trajectory Interchange Format, to <run>/atif/<task>/<trial>.json
    /// (the report links it once rewritten) or, for one run, to --out.
    ///
    /// Example: nab export --format parquet --out analysis/ runs/sweep-1 runs/baseline
    Export(export::Args),
    /// Write DIR/index.html: every run and sweep under DIR, to filter, sort, open and compare.
    ///
    /// One row per run folder (a folder holding results.jsonl) found under DIR, a few levels
    /// down and never through a symbolic link: agent, model, start, tasks, trials, pass rate
    /// (as in its report), errors, cost when priced, and its sweep. Filter by any word, sort
    /// by any column, open a run's report or its sweep's leaderboard, list a run's trials and
    /// open one in the report, or tick two runs to see them side by side on their common
    /// tasks with the `nab compare` command for the paired statistics. The page is static and
    /// self-contained, its links relative: run `nab view` again to refresh it, or publish the
    /// folder as it is. A folder that cannot be read is left out with a note.
    ///
    /// Example: nab view runs   (then open runs/index.html)
    View(view::Args),
    /// Run a sweep file: agents × models × tasks × trials, one run folder per (agent, model).
    ///
    /// Trials are interleaved across the runs (round r is trial r of every task for every
    /// run), so a sweep stopped halfway has balanced partial results. Each provider gets its
    /// own concurrency and request pace (`providers:`); a 429/503/529 slows only that
    /// provider, and its retries still end, as an `error` naming it, after max_retries.
    /// sweep.json lists the runs for `nab leaderboard`; every run folder works with
    /// `nab report`, `nab compare` and `nab gate`. A whole sweep that ran to its end
    /// writes and prints its leaderboard (DIR/leaderboard.html). Example:
    /// ci/sweep.example.yaml.
    Sweep(sweep::Args),
    /// Pack a run or sweep folder into one file to publish: records, reports, logs, each
    /// trial's recorded model answers, and a manifest of hashes and provenance.
    ///
    /// Secret-looking text is redacted; trials that cannot be re-graded (a command: agent,
    /// an infrastructure error, answers not on record whole) are listed. Anyone re-grades
    /// the file offline with `nab regrade`. Example: nab bundle runs/sweep-1 --out
    /// sweep-1.nab.tar.zst
    Bundle(bundle::Args),
    /// Re-grade a bundle offline, with no model and no key: replay every trial's recorded
    /// answers through the same agent and the local hidden tests; exit 1 on any divergence.
    ///
    /// Refuses a suite, test set or image that is not the one the runs used (naming what
    /// differs) and a bundle that does not match its manifest (naming the file or trial).
    /// Each trial's verdict, tests passed, steps and tokens are compared with its record;
    /// regrade.md names the first differing request of a trial that diverged, and
    /// <FILE>.regrade.json records the outcome for `nab leaderboard`. Which trials can be
    /// replayed is decided from the bundle's files, not its manifest, and a recorded pass that
    /// cannot be replayed fails the regrade. Exit status: 0 every re-gradable trial identical
    /// and every pass re-graded, 1 a divergence, an unverifiable pass or an edited bundle, 2
    /// refused.
    Regrade(regrade::Args),
    /// Run the built-in hostile agents against the harness; exit 1 if any attack fooled it.
    Selftest(selftest::Args),
    /// Print nab's shell completion script (bash, zsh, fish, elvish or powershell).
    ///
    /// Install it where the shell looks for it; a new shell then completes nab's commands,
    /// flags and their possible values. bash: `nab completions bash >
    /// ~/.local/share/bash-completion/completions/nab`. zsh: `nab completions zsh >
    /// ~/.zfunc/_nab`, with `fpath+=~/.zfunc` before `compinit` in ~/.zshrc. fish: `nab
    /// completions fish > ~/.config/fish/completions/nab.fish`.
    Completions(completions::Args),
    /// Write nab's man pages: the top page to stdout, or one page per command with --out.
    ///
    /// `nab man --out DIR` writes nab.1, nab-run.1, nab-image-build.1, … (every command and
    /// subcommand). Read one with `man -l DIR/nab-run.1`, or write them into a man1 folder on
    /// the manual path (`nab man --out ~/.local/share/man/man1`) and read `man nab-run`.
    /// `nab man | man -l -` shows the top page without writing a file.
    Man(man::Args),
    /// Generate the book's pages that come from these definitions (docs/src/reference/cli.md).
    #[command(hide = true)]
    Docs(docs::Args),
}

impl Cli {
    pub async fn run(self) -> anyhow::Result<ExitCode> {
        match self.command {
            Command::Validate(a) => validate::run(a).await,
            Command::Run(a) => run::run(a).await,
            Command::Clean(a) => clean::run(a).await,
            Command::Image(a) => image::run(a).await,
            Command::Import(a) => import::run(a).await,
            Command::Judge(a) => judge::run(a).await,
            Command::Review(a) => review::run(a),
            Command::Merge(a) => merge::run(a),
            Command::Report(a) => report::run(a),
            Command::Compare(a) => compare::run(a).await,
            Command::Gate(a) => gate::run(a),
            Command::Leaderboard(a) => leaderboard::run(a),
            Command::Export(a) => export::run(a),
            Command::View(a) => view::run(a),
            Command::Bundle(a) => bundle::run(a),
            Command::Regrade(a) => regrade::run(a).await,
            Command::Selftest(a) => selftest::run(a).await,
            Command::Sweep(a) => sweep::run(a).await,
            Command::Completions(a) => completions::run(a),
            Command::Man(a) => man::run(a),
            Command::Docs(a) => docs::run(a),
        }
    }
}

/// The image spinner's target: silent when stderr is not a terminal.
fn spinner_target() -> indicatif::ProgressDrawTarget {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        indicatif::ProgressDrawTarget::stderr()
    } else {
        indicatif::ProgressDrawTarget::hidden()
    }
}

/// Ensures the base image, with a spinner; prints one line when it had to be built.
pub(crate) async fn ensure_image(
    docker: &nab_harness::env::sandbox::Engine,
    force: bool,
) -> anyhow::Result<String> {
    let pb = indicatif::ProgressBar::with_draw_target(None, spinner_target());
    pb.set_style(indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed}] {msg}",
    )?);
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    let recipe = nab_harness::env::image::Recipe::default();
    if !force && !nab_harness::env::image::image_exists(docker, &recipe.tag()).await? {
        eprintln!(
            "building base image {} (first run; takes a few minutes) ...",
            recipe.tag()
        );
    }
    let ensured = nab_harness::env::image::ensure_base_image(docker, &recipe, force, &pb).await?;
    pb.finish_and_clear();
    if let Some(t) = ensured.built_in {
        eprintln!(
            "built base image {} in {:.1} s",
            ensured.tag,
            t.as_secs_f64()
        );
    }
    Ok(ensured.tag)
}

/// Builds the task images `tasks` need that are missing (one per distinct environment),
/// with progress, and points each task with an `environment:` at its image. A failed
/// build is an error naming the task(s) and the failing command; no trial runs.
pub(crate) async fn ensure_task_images(
    docker: &nab_harness::env::sandbox::Engine,
    base: &str,
    tasks: &mut [std::sync::Arc<nab_harness::task::Task>],
    force: bool,
) -> anyhow::Result<
    Vec<(
        nab_harness::env::image::SuiteImage,
        nab_harness::env::image::Ensured,
    )>,
> {
    let pb = indicatif::ProgressBar::with_draw_target(None, spinner_target());
    pb.set_style(indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed}] {msg}",
    )?);
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    let built = nab_harness::env::image::ensure_suite_images(
        docker,
        base,
        tasks,
        force,
        &pb,
        |i, n, img| {
            pb.suspend(|| {
                eprintln!(
                    "building task image {}/{n} {} for {} ...",
                    i,
                    img.recipe.tag(),
                    img.tasks.join(", ")
                )
            });
        },
    )
    .await;
    pb.finish_and_clear();
    let built = built?;
    for (img, e) in &built {
        if let Some(t) = e.built_in {
            eprintln!(
                "built task image {} ({}) in {:.1} s",
                e.tag,
                img.tasks.join(", "),
                t.as_secs_f64()
            );
        }
    }
    Ok(built)
}

/// What a command has once its engines are ready for trials.
pub(crate) struct Prepared {
    pub connected: nab_harness::run::Connected,
    /// The base image's tag.
    pub image: String,
    /// The task images still being built (trials of other tasks need not wait).
    pub images: std::sync::Arc<nab_harness::run::TaskImages>,
    /// Where the run's progress goes: the same lines or bar as the image builds'.
    pub progress: std::sync::Arc<dyn nab_harness::run::Reporter>,
}

impl Prepared {
    /// Waits for every task image, for a command that runs no trial before they are all
    /// there.
    pub(crate) async fn all_images(&self) -> anyhow::Result<()> {
        self.images.all_ready().await.map_err(anyhow::Error::msg)
    }
}

/// [`prepare_engines`], then waits for every task image: for a command that runs no trial
/// before they are all there (a sweep, whose runs share their trials' slots; a regrade).
pub(crate) async fn prepare_with_images(
    opts: &common::EngineOpts,
    jobs: usize,
    tasks: &mut [std::sync::Arc<nab_harness::task::Task>],
) -> anyhow::Result<Prepared> {
    let prepared = prepare_engines(opts, jobs, tasks).await?;
    prepared.all_images().await?;
    Ok(prepared)
}

/// Connects the engines of `--engine` (or the default one) and builds the base image on
/// the first, then starts building the missing task images there in the background (each
/// copied to every other engine that lacks it): the trials of tasks on the base image need
/// not wait for them. Every task with an `environment:` is pointed at its image's tag.
pub(crate) async fn prepare_engines(
    opts: &common::EngineOpts,
    jobs: usize,
    tasks: &mut [std::sync::Arc<nab_harness::task::Task>],
) -> anyhow::Result<Prepared> {
    use nab_harness::env::image::{image_exists, suite_images};
    let connected = opts.connect(jobs).await?;
    let image = ensure_image(connected.first(), false).await?;
    let progress = nab_harness::run::progress::for_stderr();
    connected
        .spread_images(std::slice::from_ref(&image), progress.as_ref())
        .await?;
    let mut missing = Vec::new();
    for img in suite_images(&image, tasks) {
        let tag = img.recipe.tag();
        for t in tasks.iter_mut() {
            if img.tasks.iter().any(|id| id == t.id()) {
                std::sync::Arc::make_mut(t).image = Some(tag.clone());
            }
        }
        if image_exists(connected.first(), &tag).await? {
            connected
                .spread_images(std::slice::from_ref(&tag), progress.as_ref())
                .await?;
        } else {
            missing.push(img);
        }
    }
    let images = if missing.is_empty() {
        nab_harness::run::TaskImages::present()
    } else {
        nab_harness::run::TaskImages::start(connected.clone(), missing, progress.clone())
    };
    Ok(Prepared {
        connected,
        image,
        images,
        progress,
    })
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// clap checks a command's definition only when it is built: two flattened `Args` with
    /// the same group or argument name would panic at the first `nab` call.
    #[test]
    fn every_subcommand_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// `nab compare` flattens the reports' and the judges' arguments; its help keeps the
    /// order it had when one struct declared them all.
    #[test]
    fn compare_lists_its_options_in_their_order() {
        let mut cli = Cli::command();
        cli.build();
        let help = cli
            .find_subcommand_mut("compare")
            .map(|c| c.render_long_help().to_string())
            .unwrap_or_default();
        let order = [
            "      --baseline <DIR>",
            "      --candidate <DIR>",
            "      --judge <SPEC>",
            "      --rubric <FILE>",
            "      --tasks <DIR>",
            "      --pairs-out <FILE>",
            "      --judge-max-tokens <N>",
            "      --judge-timeout <SECS>",
            "      --judge-context-tokens <TOKENS>",
            "      --judge-response-format <FORMAT>",
            "      --pairwise <FILE>",
            "      --merge-pairwise",
            "      --out <FILE>",
            "      --seed <SEED>",
            "  -h, --help",
        ];
        let at: Vec<usize> = order
            .iter()
            .map(|f| help.find(f).unwrap_or(usize::MAX))
            .collect();
        assert!(at.iter().all(|&i| i != usize::MAX), "{help}");
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}\n{help}");
    }
}
