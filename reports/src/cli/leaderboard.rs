//! `nab leaderboard DIR... [--out DIR] [--allow-mixed] [--seed S] [--draws N]`: many runs
//! ranked on their common tasks; writes leaderboard.html, leaderboard.md and
//! leaderboard.json.

use crate::leaderboard::{self, Options};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct LeaderboardArgs {
    /// Run folders (holding results.jsonl), sweep folders (holding sweep.json, or run
    /// subfolders) and bundles (`nab bundle` files; a row re-graded here by `nab regrade`
    /// says so), one row per run.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write leaderboard.html, leaderboard.md and leaderboard.json (created if
    /// missing). Default: the DIR, when only one is given.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Rank runs that used different task sets or suite versions anyway (on the tasks they
    /// share); every page then says so. Without it such runs are refused.
    #[arg(long)]
    pub allow_mixed: bool,
    /// Seed of the sign-flip tests' Monte Carlo fallback and of the cost-per-solved-task
    /// bootstrap (the same seed gives the same pages).
    #[arg(long, default_value_t = crate::stats::bootstrap::DEFAULT_SEED)]
    pub seed: u64,
    /// Monte Carlo draws of a sign-flip test whose exact distribution is too large (many
    /// tasks with unlike trial counts; otherwise the tests are exact), and resamples of the
    /// cost-per-solved-task bootstrap.
    #[arg(long, alias = "resamples", default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub draws: u32,
}

/// What `nab leaderboard` built and where it wrote it.
#[derive(Debug)]
pub struct LeaderboardRun {
    /// The ranked runs ([`terminal`] words them for the binary to print).
    pub board: leaderboard::Leaderboard,
    /// The pages written.
    pub written: leaderboard::LeaderboardOutputs,
}

/// Builds the leaderboard of the DIRs and writes its pages.
pub fn run(args: &LeaderboardArgs) -> anyhow::Result<LeaderboardRun> {
    run_with(args, Vec::new())
}

/// [`run`], with some DIRs unpacked from bundles (`sources` says which and how they were
/// re-graded).
pub fn run_with(
    args: &LeaderboardArgs,
    sources: Vec<leaderboard::Source>,
) -> anyhow::Result<LeaderboardRun> {
    let out = match (&args.out, args.dirs.as_slice()) {
        (Some(o), _) => o.clone(),
        (None, [one]) => one.clone(),
        (None, _) => anyhow::bail!(
            "{} folders given: pass --out DIR to say where the leaderboard goes",
            args.dirs.len()
        ),
    };
    let board = leaderboard::build(
        &args.dirs,
        &Options {
            allow_mixed: args.allow_mixed,
            seed: args.seed,
            draws: args.draws as usize,
            sources,
        },
    )?;
    let written = leaderboard::write_leaderboard(&board, &out)?;
    Ok(LeaderboardRun { board, written })
}

/// A few lines for the terminal: rank, interval, pass rate with its interval, the name.
pub fn terminal(b: &leaderboard::Leaderboard) -> String {
    use crate::format::pct;
    let mut s = String::new();
    if !b.mixed.is_empty() {
        s.push_str("MIXED SUITES, ranked anyway (--allow-mixed):\n");
        for m in &b.mixed {
            s.push_str(&format!("  - {m}\n"));
        }
    }
    s.push_str(&format!(
        "{} runs ranked on {} common tasks ({} left out)\n",
        b.rows.len(),
        b.common_tasks.len(),
        b.excluded_tasks.len()
    ));
    for r in &b.rows {
        s.push_str(&format!(
            "  {:>3}  [{}–{}]  {:>6}  ({} – {})  errors {:>6}{}  {}\n",
            r.rank.rank,
            r.rank.low,
            r.rank.high,
            pct(r.pass_rate),
            pct(r.pass_rate_ci.map(|c| c.low)),
            pct(r.pass_rate_ci.map(|c| c.high)),
            pct(r.error_rate),
            if r.tasks_with_errors.is_empty() {
                String::new()
            } else {
                format!(
                    " (in {} task(s), counted as not passed)",
                    r.tasks_with_errors.len()
                )
            },
            r.label
        ));
    }
    s.push_str("rank intervals are simultaneous (family-wise 95%), read off the matrix\n");
    let sig = b
        .significance
        .pairs
        .iter()
        .filter(|p| p.significant)
        .count();
    if b.rows.len() > 1 {
        s.push_str(&format!(
            "{sig} of {} pairs differ significantly (exact sign-flip test on the common tasks, Holm, α = {})\n",
            b.significance.tested, b.significance.alpha
        ));
    }
    for n in &b.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    s
}
