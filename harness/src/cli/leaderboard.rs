//! `nab leaderboard DIR|FILE... [--out DIR] [--allow-mixed]`: runs, sweeps and bundles
//! ranked on their common tasks (leaderboard.html, .md, .json). The logic is nab-reports'
//! `leaderboard`; a bundle is unpacked (and checked against its manifest) first, and its
//! rows say whether `nab regrade` re-graded it here.

use nab_harness::run::bundle::open::{Limits, unpack};
use nab_protocol::{BundleManifest, RegradeOutcome, RegradedRun};
use nab_reports::leaderboard::Source;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub type Args = nab_reports::LeaderboardArgs;

pub fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    // Bundles are unpacked into folders that live until the pages are written.
    let mut unpacked = Vec::new();
    let mut sources = Vec::new();
    if args.out.is_none()
        && let [one] = args.dirs.as_slice()
        && one.is_file()
    {
        args.out = Some(beside(one, ".leaderboard"));
    }
    for dir in args.dirs.iter_mut() {
        if !dir.is_file() {
            continue;
        }
        let tmp = tempfile::Builder::new().prefix("nab-bundle-").tempdir()?;
        let root = tmp.path().join("bundle");
        let manifest = unpack(dir, &root, Limits::default())?;
        sources.extend(sources_of(dir, &root, &manifest));
        *dir = root;
        unpacked.push(tmp);
    }
    let r = nab_reports::cli::leaderboard::run_with(&args, sources)?;
    print!("{}", nab_reports::cli::leaderboard::terminal(&r.board));
    for written in [&r.written.html, &r.written.markdown, &r.written.json] {
        println!("wrote {}", written.display());
    }
    drop(unpacked);
    Ok(ExitCode::SUCCESS)
}

fn beside(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Each run of the bundle at `file` (unpacked at `root`), with what re-grading it here
/// found: the outcome beside the bundle counts only if it is for these very bytes.
fn sources_of(file: &Path, root: &Path, manifest: &BundleManifest) -> Vec<Source> {
    let outcome: Option<RegradeOutcome> = std::fs::read_to_string(RegradeOutcome::path_for(file))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .filter(|o: &RegradeOutcome| {
            nab_harness::run::provenance::file_sha256(file)
                .ok()
                .as_ref()
                == Some(&o.bundle_sha256)
        });
    manifest
        .runs
        .iter()
        .map(|run| {
            let regraded = outcome
                .as_ref()
                .and_then(|o| Some((o, o.runs.iter().find(|r| r.dir == run.dir)?)));
            let confirmed = regraded.is_some_and(|(o, r)| o.shard.is_none() && r.confirms());
            let regraded = regraded.map(|(o, r)| describe(o, r));
            Source {
                dir: if run.dir.is_empty() {
                    root.to_owned()
                } else {
                    root.join(&run.dir)
                },
                shown_as: if run.dir.is_empty() {
                    file.display().to_string()
                } else {
                    format!("{}#{}", file.display(), run.dir)
                },
                regraded,
                confirmed,
            }
        })
        .collect()
}

/// `re-graded here on <date>: 40 trial(s) identical, 0 diverged, 1 not re-gradable …`.
fn describe(o: &RegradeOutcome, r: &RegradedRun) -> String {
    let list = |v: &[String]| {
        if v.is_empty() {
            String::new()
        } else {
            format!(" ({})", v.join(", "))
        }
    };
    format!(
        "re-graded here on {}: {} trial(s) identical, {} diverged{}, {} not re-gradable{}{}",
        o.regraded_at.get(..10).unwrap_or(&o.regraded_at),
        r.identical,
        r.diverged.len(),
        list(&r.diverged),
        r.not_regradable.len(),
        if r.unverified_passes.is_empty() {
            String::new()
        } else {
            format!(
                ", of them passes nobody can check{}",
                list(&r.unverified_passes)
            )
        },
        o.shard
            .as_deref()
            .map(|s| format!(", shard {s} only"))
            .unwrap_or_default()
    )
}
