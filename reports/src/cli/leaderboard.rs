//! `nab leaderboard DIR... [--out DIR] [--allow-mixed]`: many runs ranked on their common
//! tasks; writes leaderboard.html, leaderboard.md and leaderboard.json.

use crate::leaderboard::{self, Options};
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct LeaderboardArgs {
    /// Run folders (holding results.jsonl) and sweep folders (holding sweep.json, or run
    /// subfolders), one row per run.
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
    /// Seed of the bootstrap behind the rank intervals.
    #[arg(long, default_value_t = crate::stats::bootstrap::DEFAULT_SEED)]
    pub seed: u64,
    /// Bootstrap resamples for the rank intervals.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub resamples: u32,
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
            resamples: args.resamples as usize,
        },
    )?;
    let written = leaderboard::write_leaderboard(&board, &out)?;
    Ok(LeaderboardRun { board, written })
}

/// A few lines for the terminal: rank, interval, pass rate with its interval, the name.
pub fn terminal(b: &leaderboard::Leaderboard) -> String {
    use crate::leaderboard::markdown::pct;
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
            "  {:>3}  [{}–{}]  {:>6}  ({} – {})  errors {:>6}  {}\n",
            r.rank.rank,
            r.rank.low,
            r.rank.high,
            pct(r.pass_rate),
            pct(r.pass_rate_ci.map(|c| c.low)),
            pct(r.pass_rate_ci.map(|c| c.high)),
            pct(r.error_rate),
            r.label
        ));
    }
    let sig = b
        .significance
        .pairs
        .iter()
        .filter(|p| p.significant)
        .count();
    if b.rows.len() > 1 {
        s.push_str(&format!(
            "{sig} of {} pairs differ significantly (paired t-test, Holm, α = {})\n",
            b.significance.tested, b.significance.alpha
        ));
    }
    for n in &b.notes {
        s.push_str(&format!("note: {n}\n"));
    }
    s
}
