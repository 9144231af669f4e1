//! `nab bundle` and `nab regrade` end to end against real Docker: a scripted nab-agent run
//! is bundled and re-graded identically; then three forgeries, each with the manifest
//! rewritten to match (so its hashes alone catch nothing), are caught with the trial named:
//! a flipped verdict, a changed model answer, a removed trial.

use crate::common;

use common::repo_tasks;
use nab_protocol::{BundleManifest, FileDigest, TrialRecord, TrialStatus};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::process::Command;

const TASK: &str = "py-pagination-offbyone";

fn nab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nab"))
}

fn run_ok(cmd: &mut Command) -> String {
    let o = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{cmd:?} failed: {text}");
    text
}

/// `nab regrade` of `bundle`: exit code and everything it said.
fn regrade(bundle: &Path) -> (Option<i32>, String) {
    let o = nab()
        .arg("regrade")
        .arg(bundle)
        .arg("--tasks")
        .arg(repo_tasks())
        .args(["-j", "2"])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), text)
}

/// What `nab regrade` wrote about each trial that diverged, for a failing assertion.
fn regrade_details(bundle: &Path) -> String {
    let mut md = bundle.as_os_str().to_owned();
    md.push(".regrade/regrade.md");
    std::fs::read_to_string(&md).unwrap_or_else(|e| format!("(no {md:?}: {e})"))
}

/// `nab leaderboard BUNDLE`: what its one row says about re-grading (the pages go beside
/// the bundle).
fn regraded_row(bundle: &Path) -> Option<String> {
    run_ok(nab().arg("leaderboard").arg(bundle));
    let mut json = bundle.as_os_str().to_owned();
    json.push(".leaderboard/leaderboard.json");
    let board: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let row = &board["rows"][0];
    assert_eq!(row["run_dir"], bundle.display().to_string());
    row["regraded"].as_str().map(str::to_owned)
}

fn unpack(bundle: &Path, into: &Path) {
    let decoder = zstd::stream::Decoder::new(std::fs::File::open(bundle).unwrap()).unwrap();
    tar::Archive::new(decoder).unpack(into).unwrap();
}

/// A copy of `bundle` at `out` with `edit` applied to its files, and a manifest rewritten
/// to agree: every hash recomputed, the trials listed as the records say.
fn forge(bundle: &Path, out: &Path, edit: impl FnOnce(&Path)) {
    forge_then(bundle, out, edit, |_| {});
}

/// [`forge`], and then `lie` about the manifest.
fn forge_then(
    bundle: &Path,
    out: &Path,
    edit: impl FnOnce(&Path),
    lie: impl FnOnce(&mut BundleManifest),
) {
    let dir = tempfile::tempdir().unwrap();
    unpack(bundle, dir.path());
    edit(dir.path());
    let manifest_path = dir.path().join(nab_protocol::BUNDLE_MANIFEST_FILE);
    let mut m: BundleManifest =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    for (rel, digest) in m.files.iter_mut() {
        let bytes = std::fs::read(dir.path().join(rel)).unwrap();
        *digest = FileDigest {
            bytes: bytes.len() as u64,
            sha256: format!("sha256:{}", hex::encode(Sha256::digest(&bytes))),
        };
    }
    let records = records(dir.path());
    m.runs[0].trials.retain(|t| {
        records
            .iter()
            .any(|r| r.task_id == t.task && r.trial == t.trial)
    });
    for t in m.runs[0].trials.iter_mut() {
        let r = records
            .iter()
            .find(|r| r.task_id == t.task && r.trial == t.trial)
            .unwrap();
        t.status = r.outcome.status;
    }
    lie(&mut m);
    std::fs::write(&manifest_path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let file = std::fs::File::create(out).unwrap();
    let mut tar = tar::Builder::new(zstd::stream::Encoder::new(file, 3).unwrap().auto_finish());
    tar.append_dir_all(".", dir.path()).unwrap();
    drop(tar.into_inner().unwrap());
}

fn records(run: &Path) -> Vec<TrialRecord> {
    nab_protocol::read_jsonl::<TrialRecord>(&run.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records
}

fn write_records(run: &Path, records: &[TrialRecord]) {
    let text: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    std::fs::write(run.join(nab_protocol::RESULTS_FILE), text).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bundle_regrades_identically_and_each_forgery_is_caught_with_its_trial_named() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let run = root.path().join("run");
    run_ok(
        nab()
            .args(["run", "--agent", "nab-agent", "--model", "scripted:task"])
            .args(["--trials", "2", "-j", "2", "--tasks"])
            .arg(repo_tasks())
            .arg("--out")
            .arg(&run)
            .arg(TASK),
    );
    let bundle = root.path().join("run.nab.tar.zst");
    let said = run_ok(nab().arg("bundle").arg(&run).arg("--out").arg(&bundle));
    assert!(said.contains("2 trial(s) (2 re-gradable)"), "{said}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&bundle).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o644, "a bundle is made to be published");

    // The honest bundle: every trial identical, the outcome kept beside the bundle.
    let (code, said) = regrade(&bundle);
    assert_eq!(code, Some(0), "{said}\n{}", regrade_details(&bundle));
    assert!(said.contains("2 trial(s) identical, 0 diverged"), "{said}");
    let outcome: nab_protocol::RegradeOutcome = serde_json::from_str(
        &std::fs::read_to_string(nab_protocol::RegradeOutcome::path_for(&bundle)).unwrap(),
    )
    .unwrap();
    assert!(outcome.confirms(), "{outcome:?}");
    assert_eq!(
        regraded_row(&bundle)
            .as_deref()
            .map(|r| r.contains("2 trial(s) identical, 0 diverged")),
        Some(true)
    );

    // Again into the same folder: the trials already played are kept, none is played again.
    let (code, said) = regrade(&bundle);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("2 trial(s) identical"), "{said}");
    assert!(
        !said.contains("[1/"),
        "a resumed regrade played a trial again: {said}"
    );

    // A failed trial would read as passed: here a pass is flipped to a failure with its
    // tests, the manifest made to agree.
    let flipped = root.path().join("flipped.nab.tar.zst");
    forge(&bundle, &flipped, |dir| {
        let mut rs = records(dir);
        let r = rs.iter_mut().find(|r| r.trial == 1).unwrap();
        r.outcome.status = TrialStatus::Failed;
        r.outcome.tests_passed = Some(0);
        write_records(dir, &rs);
    });
    let (code, said) = regrade(&flipped);
    assert_eq!(code, Some(1), "{said}");
    let flipped_trial = format!("{TASK}/1");
    assert!(
        said.contains(&flipped_trial) && said.contains("DIVERGED"),
        "{said}"
    );
    assert!(said.contains("1 trial(s) identical, 1 diverged"), "{said}");
    let row = regraded_row(&flipped).unwrap();
    assert!(
        row.contains(&format!("1 diverged ({flipped_trial})")),
        "{row}"
    );

    // A model answer changed in the transcript: the agent's next request carries it, the
    // recorded one does not.
    let changed = root.path().join("changed.nab.tar.zst");
    forge(&bundle, &changed, |dir| {
        let path = dir.join(format!("trials/{TASK}/0/transcript.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        lines[0]["response"]["choices"][0]["message"]["content"] =
            "A different first answer.".into();
        let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
        std::fs::write(&path, text).unwrap();
    });
    let (code, said) = regrade(&changed);
    assert_eq!(code, Some(1), "{said}");
    let details =
        std::fs::read_to_string(root.path().join("changed.nab.tar.zst.regrade/regrade.md"))
            .unwrap();
    assert!(details.contains(&format!("## run {TASK}/0")), "{details}");
    assert!(details.contains("model call 1 differs"), "{details}");

    // A trial taken out of the records and the manifest: run.json's plan still names it.
    let removed = root.path().join("removed.nab.tar.zst");
    forge(&bundle, &removed, |dir| {
        let mut rs = records(dir);
        rs.retain(|r| r.trial != 0);
        write_records(dir, &rs);
    });
    let (code, said) = regrade(&removed);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(&format!("trial {TASK}/0 is in the run's plan")),
        "{said}"
    );

    // The cheapest way past a replay: make a pass impossible to replay (a transcript line
    // marked as cut by the cap), and call an honest trial "not re-gradable" in the
    // manifest. The regrade decides re-gradability itself and fails on a pass it cannot play.
    let unplayable = root.path().join("unplayable.nab.tar.zst");
    forge_then(
        &bundle,
        &unplayable,
        |dir| {
            let path = dir.join(format!("trials/{TASK}/0/transcript.jsonl"));
            let text = std::fs::read_to_string(&path).unwrap();
            let mut lines: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            lines[2]["response"] =
                serde_json::json!({"nab_omitted": {"reason": "line_cap", "bytes": 9}});
            let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
            std::fs::write(&path, text).unwrap();
        },
        |m| {
            for t in m.runs[0].trials.iter_mut() {
                t.not_regradable = Some("trust me".into());
            }
        },
    );
    let (code, said) = regrade(&unplayable);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("1 trial(s) identical"),
        "{said}\n{}",
        regrade_details(&unplayable)
    );
    assert!(
        said.contains(&format!("1 recorded pass(es) nobody can check: {TASK}/0")),
        "{said}"
    );
    let row = regraded_row(&unplayable).unwrap();
    assert!(row.contains("passes nobody can check"), "{row}");

    // An unforged file edit, without rewriting the manifest, is caught by its hash.
    let edited = root.path().join("edited.nab.tar.zst");
    {
        let dir = tempfile::tempdir().unwrap();
        unpack(&bundle, dir.path());
        let log = dir.path().join(format!("trials/{TASK}/0/verify.log"));
        std::fs::write(&log, "all good\n").unwrap();
        let file = std::fs::File::create(&edited).unwrap();
        let mut tar = tar::Builder::new(zstd::stream::Encoder::new(file, 3).unwrap().auto_finish());
        tar.append_dir_all(".", dir.path()).unwrap();
        drop(tar.into_inner().unwrap());
    }
    let (code, said) = regrade(&edited);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(&format!("trials/{TASK}/0/verify.log: its content differs")),
        "{said}"
    );
}

#[test]
fn a_bundle_with_a_link_or_a_path_outside_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let bundle = root.path().join("evil.tar.zst");
    {
        let file = std::fs::File::create(&bundle).unwrap();
        let mut tar = tar::Builder::new(zstd::stream::Encoder::new(file, 3).unwrap().auto_finish());
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(tar::EntryType::Symlink);
        h.set_size(0);
        h.set_mode(0o777);
        tar.append_link(&mut h, "results.jsonl", "/etc/passwd")
            .unwrap();
        drop(tar.into_inner().unwrap());
    }
    let (code, said) = regrade(&bundle);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("is not a plain file"), "{said}");
    assert!(
        !root
            .path()
            .join("evil.tar.zst.regrade/bundle/results.jsonl")
            .exists()
    );
}
