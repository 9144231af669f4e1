//! What a regrade found: the table printed, `regrade.md` in its folder (every divergence in
//! full) and `<bundle>.regrade.json` beside the bundle (what a leaderboard reads).

use super::compare::Compared;
use super::{Workspace, run_name};
use nab_protocol::{BUNDLE_VERSION, BundledRun, RegradeOutcome, RegradedRun, TrialStatus};
use std::fmt::Write as _;
use std::path::Path;

/// One run's comparisons and the trials it could not re-grade.
pub struct RunResult<'a> {
    pub run: &'a BundledRun,
    pub compared: Vec<Compared>,
    pub skipped: Vec<String>,
}

/// The machine-readable outcome.
pub fn outcome(ws: &Workspace, results: &[RunResult<'_>], shard: Option<String>) -> RegradeOutcome {
    RegradeOutcome {
        v: BUNDLE_VERSION,
        bundle_sha256: ws.bundle_sha256.clone(),
        regraded_at: nab_protocol::now_rfc3339(),
        nab_version: env!("CARGO_PKG_VERSION").to_owned(),
        shard,
        runs: results
            .iter()
            .map(|r| RegradedRun {
                dir: r.run.dir.clone(),
                run_id: r.run.run_id.clone(),
                identical: r.compared.iter().filter(|c| c.divergence.is_none()).count(),
                diverged: r
                    .compared
                    .iter()
                    .filter(|c| c.divergence.is_some())
                    .map(|c| format!("{}/{}", c.task, c.trial))
                    .collect(),
                not_regradable: r.skipped.clone(),
                unverified_passes: r
                    .run
                    .trials
                    .iter()
                    .filter(|t| t.not_regradable.is_some() && t.status == TrialStatus::Passed)
                    .map(|t| format!("{}/{}", t.task, t.trial))
                    .collect(),
            })
            .collect(),
    }
}

/// The table: per run, one line per trial played again, then the trials that were not.
pub fn table(results: &[RunResult<'_>]) -> String {
    let mut out = String::new();
    for r in results {
        let _ = writeln!(out, "{}", run_name(r.run));
        let _ = writeln!(
            out,
            "  {:<34} {:<36} {:<36} result",
            "trial", "recorded", "played again"
        );
        for c in &r.compared {
            let _ = writeln!(
                out,
                "  {:<34} {:<36} {:<36} {}",
                format!("{}/{}", c.task, c.trial),
                c.recorded.describe(),
                c.replayed.as_ref().map_or("-".into(), |v| v.describe()),
                if c.divergence.is_some() {
                    "DIVERGED"
                } else {
                    "identical"
                }
            );
        }
        for s in &r.skipped {
            let _ = writeln!(out, "  not re-gradable: {s}");
        }
    }
    out
}

/// `regrade.md`: the headline, the table and every divergence in full.
pub fn write_markdown(
    ws: &Workspace,
    bundle: &Path,
    results: &[RunResult<'_>],
    o: &RegradeOutcome,
) -> std::io::Result<()> {
    let mut md = format!("# Regrade of {}\n\n{}\n\n", bundle.display(), headline(o));
    let _ = writeln!(
        md,
        "Bundle {} (nab {}), re-graded with nab {} at {}.\n",
        o.bundle_sha256, ws.manifest.nab_version, o.nab_version, o.regraded_at
    );
    md.push_str("```\n");
    md.push_str(&table(results));
    md.push_str("```\n");
    for r in results {
        for c in r.compared.iter().filter(|c| c.divergence.is_some()) {
            let _ = writeln!(
                md,
                "\n## {} {}/{}\n\n{}",
                run_name(r.run),
                c.task,
                c.trial,
                c.divergence.as_deref().unwrap_or("")
            );
        }
    }
    nab_protocol::write_atomic(&ws.root.join("regrade.md"), md.as_bytes()).map_err(|e| e.source)
}

/// `2 run(s): 38 trial(s) identical, 2 diverged, 1 not re-gradable`.
pub fn headline(o: &RegradeOutcome) -> String {
    let identical: usize = o.runs.iter().map(|r| r.identical).sum();
    let diverged: usize = o.runs.iter().map(|r| r.diverged.len()).sum();
    let skipped: usize = o.runs.iter().map(|r| r.not_regradable.len()).sum();
    let unverified: Vec<&String> = o.runs.iter().flat_map(|r| &r.unverified_passes).collect();
    format!(
        "{} run(s): {identical} trial(s) identical, {diverged} diverged, {skipped} not re-gradable{}{}",
        o.runs.len(),
        if unverified.is_empty() {
            String::new()
        } else {
            format!(
                " (among them {} recorded pass(es) nobody can check: {})",
                unverified.len(),
                unverified
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        o.shard
            .as_deref()
            .map(|s| format!(" (shard {s} only)"))
            .unwrap_or_default()
    )
}
