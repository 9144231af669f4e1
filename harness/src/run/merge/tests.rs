//! `nab merge` on hand-made shard folders: the checks, the join, the output folder, and
//! hostile shard folders.

use super::*;
use nab_protocol::ShardMeta;
use nab_protocol::TrialStatus;
use std::os::unix::fs::symlink;

const TASKS: [&str; 3] = ["t-a", "t-b", "t-c"];

fn meta(k: u32, n: u32) -> RunMeta {
    RunMeta {
        run_id: Some(format!("run-{k}")),
        agent: Some("oracle".into()),
        model: Some("scripted:task".into()),
        tasks_hash: Some("sha256:suite".into()),
        task_ids: TASKS.iter().map(|s| s.to_string()).collect(),
        trials: Some(2),
        started_at: Some(format!("2026-12-01T03:0{k}:00.000Z")),
        finished_at: Some(format!("2026-12-01T04:0{k}:00.000Z")),
        group: Some("g1".into()),
        shard: Some(ShardMeta {
            index: k,
            count: n,
            balance: "timeouts".into(),
            plan: "sha256:plan".into(),
        }),
        ..RunMeta::default()
    }
}

/// A shard folder holding `pairs`, each with a diff and a transcript.
fn shard(root: &Path, k: u32, n: u32, pairs: &[(&str, u32)]) -> PathBuf {
    shard_named(root, &format!("shard-{k}"), k, n, pairs)
}

/// [`shard`] in the folder `root/name`.
fn shard_named(root: &Path, name: &str, k: u32, n: u32, pairs: &[(&str, u32)]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    meta(k, n).write(&dir).unwrap();
    let mut recs = Vec::new();
    for (t, i) in pairs {
        let mut r = TrialRecord::new(&format!("run-{k}"), t, "bug-fix", *i, "oracle");
        r.outcome.status = if i % 2 == 0 {
            TrialStatus::Passed
        } else {
            TrialStatus::Failed
        };
        r.outcome.agent_s = 1.5;
        recs.push(r);
        let td = dir.join("trials").join(t).join(i.to_string());
        std::fs::create_dir_all(&td).unwrap();
        std::fs::write(
            td.join(nab_protocol::DIFF_FILE),
            format!("diff of {t} {i}\n"),
        )
        .unwrap();
        std::fs::write(td.join(nab_protocol::TRANSCRIPT_FILE), "").unwrap();
    }
    nab_protocol::write_jsonl_atomic(&dir.join(nab_protocol::RESULTS_FILE), &recs).unwrap();
    dir
}

fn three(root: &Path) -> Vec<PathBuf> {
    vec![
        shard(root, 1, 3, &[("t-a", 0), ("t-c", 1)]),
        shard(root, 2, 3, &[("t-a", 1), ("t-b", 0)]),
        shard(root, 3, 3, &[("t-b", 1), ("t-c", 0)]),
    ]
}

fn open(dirs: &[PathBuf]) -> Vec<ShardRun> {
    open_all(dirs, Limits::default()).unwrap()
}

/// The files whose bytes differ (or exist on one side only).
fn differ(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    a.keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}

/// Every file under `dir`, relative path → bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).unwrap().display().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn three_shards_join_into_one_run_and_merging_twice_gives_the_same_folder() {
    let root = tempfile::tempdir().unwrap();
    let mut dirs = three(root.path());
    // Given in any order, the result is the same.
    dirs.reverse();
    let shards = open(&dirs);
    let joined = join(&shards, false).unwrap();
    let pairs: Vec<(String, u32)> = joined
        .records
        .iter()
        .map(|r| (r.task_id.clone(), r.trial))
        .collect();
    let want: Vec<(String, u32)> = TASKS
        .iter()
        .flat_map(|t| (0..2).map(move |i| (t.to_string(), i)))
        .collect();
    assert_eq!(pairs, want, "suite order, then trial");
    assert!(joined.records.iter().all(|r| r.run_id == "g1"));
    assert!(joined.missing.is_empty() && joined.warnings.is_empty());
    let m = &joined.meta;
    assert_eq!(m.group.as_deref(), Some("g1"));
    assert!(m.shard.is_none());
    assert_eq!(m.started_at.as_deref(), Some("2026-12-01T03:01:00.000Z"));
    assert_eq!(m.finished_at.as_deref(), Some("2026-12-01T04:03:00.000Z"));
    let order: Vec<u32> = m
        .merged_from
        .iter()
        .map(|s| s.shard.as_ref().unwrap().index)
        .collect();
    assert_eq!(order, [1, 2, 3]);

    let out = root.path().join("merged");
    let report = write(&joined, &shards, &out, &mut Budget::default()).unwrap();
    assert!(report.is_none(), "{report:?}");
    let first = snapshot(&out);
    for f in [
        nab_protocol::RESULTS_FILE,
        nab_protocol::RUN_META_FILE,
        nab_protocol::SUMMARY_FILE,
        nab_protocol::REPORT_FILE,
        nab_protocol::PARQUET_FILE,
    ] {
        assert!(first.contains_key(f), "{f} missing: {:?}", first.keys());
    }
    assert_eq!(
        first["trials/t-c/1/diff.patch"],
        b"diff of t-c 1\n".to_vec(),
        "trial folders come along"
    );
    let back = nab_protocol::RunFolder::open(&out).unwrap();
    assert_eq!(back.records, joined.records);

    // Again, into the same folder (an earlier merge is replaced) and into another one.
    let shards = open(&three(root.path()));
    let again = join(&shards, false).unwrap();
    write(&again, &shards, &out, &mut Budget::default()).unwrap();
    assert_eq!(differ(&snapshot(&out), &first), Vec::<String>::new());
    let other = root.path().join("elsewhere/merged");
    write(&again, &shards, &other, &mut Budget::default()).unwrap();
    assert_eq!(differ(&snapshot(&other), &first), Vec::<String>::new());
    // Nothing is left beside the output.
    let names: Vec<String> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn an_output_folder_that_is_not_an_earlier_merge_is_left_alone() {
    let root = tempfile::tempdir().unwrap();
    let dirs = three(root.path());
    let shards = open(&dirs);
    let joined = join(&shards, false).unwrap();
    // A shard's own folder is a run, not a merge.
    let e = write(&joined, &shards, &dirs[0], &mut Budget::default()).unwrap_err();
    assert!(e.to_string().contains("not an earlier merge"), "{e}");
    let mine = root.path().join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep").unwrap();
    let e = write(&joined, &shards, &mine, &mut Budget::default()).unwrap_err();
    assert!(e.to_string().contains("choose another --out"), "{e}");
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "keep"
    );
    // An empty folder is fine.
    let empty = root.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    write(&joined, &shards, &empty, &mut Budget::default()).unwrap();
}

#[test]
fn a_missing_shard_fails_and_names_the_missing_trials_unless_partial_is_allowed() {
    let root = tempfile::tempdir().unwrap();
    let dirs = three(root.path());
    let shards = open(&dirs[..2]);
    let e = join(&shards, false).unwrap_err().to_string();
    assert!(e.contains("2 of 6 trial(s) are missing"), "{e}");
    assert!(
        e.contains("t-b trial 1") && e.contains("t-c trial 0"),
        "{e}"
    );
    assert!(e.contains("shards not given: 3/3"), "{e}");
    assert!(e.contains("--allow-partial"), "{e}");
    let joined = join(&shards, true).unwrap();
    assert_eq!(joined.records.len(), 4);
    assert_eq!(
        joined.missing,
        [("t-b".to_string(), 1), ("t-c".to_string(), 0)]
    );
    assert!(
        joined.warnings[0].contains("t-b trial 1"),
        "{:?}",
        joined.warnings
    );
}

#[test]
fn a_pair_in_two_shards_or_a_shard_given_twice_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let mut dirs = three(root.path());
    let extra = root.path().join("x");
    std::fs::create_dir_all(&extra).unwrap();
    let overlap = shard(&extra, 3, 3, &[("t-b", 1), ("t-c", 0), ("t-a", 0)]);
    dirs[2] = overlap.clone();
    let e = join(&open(&dirs), false).unwrap_err().to_string();
    assert!(
        e.contains("1 (task, trial) pair(s) are in more than one shard"),
        "{e}"
    );
    assert!(
        e.contains("t-a trial 0 is in") && e.contains(&overlap.display().to_string()),
        "{e}"
    );

    let dirs = three(root.path());
    let twice = vec![
        dirs[0].clone(),
        dirs[1].clone(),
        dirs[1].clone(),
        dirs[2].clone(),
    ];
    let e = join(&open(&twice), false).unwrap_err().to_string();
    assert!(e.contains("shard 2 is given twice"), "{e}");
}

#[test]
fn shards_of_different_runs_are_refused_with_each_difference_named() {
    let root = tempfile::tempdir().unwrap();
    let dirs = three(root.path());
    let change = |d: &Path, f: &dyn Fn(&mut RunMeta)| {
        let mut m = RunMeta::read(d).unwrap();
        f(&mut m);
        m.write(d).unwrap();
    };
    change(&dirs[1], &|m| m.model = Some("openai:other".into()));
    change(&dirs[2], &|m| {
        m.tasks_hash = Some("sha256:changed".into());
        m.group = Some("g2".into());
        m.trials = Some(3);
    });
    let e = join(&open(&dirs), false).unwrap_err().to_string();
    for want in [
        "the model differs",
        "openai:other in",
        "the suite hash differs",
        "the group differs",
        "g2 in",
        "the trial count differs",
    ] {
        assert!(e.contains(want), "{want}: {e}");
    }
    assert!(!e.contains("agent differs"), "{e}");

    let dirs = three(root.path());
    change(&dirs[0], &|m| m.agent = Some("null".into()));
    let e = join(&open(&dirs), false).unwrap_err().to_string();
    assert!(e.contains("the agent differs"), "{e}");

    // A shard cut from another plan (another balance or count) is another run.
    let dirs = three(root.path());
    change(&dirs[0], &|m| {
        m.shard.as_mut().unwrap().plan = "sha256:other".into()
    });
    let e = join(&open(&dirs), false).unwrap_err().to_string();
    assert!(e.contains("the shard plan differs"), "{e}");
}

#[test]
fn records_that_are_not_of_this_run_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let dirs = three(root.path());
    let extra = root.path().join("x");
    std::fs::create_dir_all(&extra).unwrap();
    let bad = shard(
        &extra,
        3,
        3,
        &[("t-b", 1), ("t-c", 0), ("t-z", 0), ("t-a", 7)],
    );
    let e = join(&open(&[dirs[0].clone(), dirs[1].clone(), bad]), false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("task \"t-z\" is not in the suite"), "{e}");
    assert!(e.contains("t-a trial 7 is past the 2 trial(s)"), "{e}");
}

#[test]
fn a_torn_line_loses_only_its_pair_and_says_so() {
    let root = tempfile::tempdir().unwrap();
    let dirs = three(root.path());
    let results = dirs[2].join(nab_protocol::RESULTS_FILE);
    let text = std::fs::read_to_string(&results).unwrap();
    // The shard was killed while writing its second record.
    let cut = text.len() - 40;
    std::fs::write(&results, &text[..cut]).unwrap();
    let shards = open(&dirs);
    assert!(shards[2].torn_tail);
    let e = join(&shards, false).unwrap_err().to_string();
    assert!(
        e.contains("1 of 6 trial(s) are missing") && e.contains("t-c trial 0"),
        "{e}"
    );
    let joined = join(&shards, true).unwrap();
    assert!(
        joined.warnings.iter().any(|w| w.contains("cut off")),
        "{:?}",
        joined.warnings
    );
}

#[test]
fn hostile_shard_folders_are_not_followed_through_links() {
    let root = tempfile::tempdir().unwrap();
    let secret = root.path().join("secret.txt");
    std::fs::write(&secret, "host secret\n").unwrap();
    let dirs = three(root.path());

    // A linked results file or run.json: the shard is refused, naming the file.
    let linked = root.path().join("linked");
    std::fs::create_dir_all(&linked).unwrap();
    symlink(
        dirs[0].join(nab_protocol::RUN_META_FILE),
        linked.join(nab_protocol::RUN_META_FILE),
    )
    .unwrap();
    symlink(
        dirs[0].join(nab_protocol::RESULTS_FILE),
        linked.join(nab_protocol::RESULTS_FILE),
    )
    .unwrap();
    let e = ShardRun::open(&linked, Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("symbolic link") && e.contains(nab_protocol::RUN_META_FILE),
        "{e}"
    );

    // Links inside a trial folder, and a trial folder that is a link: the records are
    // kept, the links are not copied, and each is named.
    let td = dirs[0].join("trials/t-a/0");
    symlink(&secret, td.join(nab_protocol::AGENT_LOG_FILE)).unwrap();
    let tc = dirs[0].join("trials/t-c/1");
    std::fs::remove_dir_all(&tc).unwrap();
    symlink(root.path(), &tc).unwrap();
    let shards = open(&dirs);
    let joined = join(&shards, false).unwrap();
    let out = root.path().join("merged");
    let mut budget = Budget::default();
    write(&joined, &shards, &out, &mut budget).unwrap();
    assert!(std::fs::symlink_metadata(out.join("trials/t-a/0/agent.log")).is_err());
    assert!(out.join("trials/t-a/0/diff.patch").is_file());
    assert!(!out.join("trials/t-c/1/secret.txt").exists());
    assert_eq!(budget.skipped.len(), 2, "{:?}", budget.skipped);
    assert!(
        budget
            .skipped
            .iter()
            .any(|s| s.contains(nab_protocol::AGENT_LOG_FILE))
    );
    assert!(budget.skipped.iter().any(|s| s.contains("trials/t-c/1")));
    for f in snapshot(&out).values() {
        assert!(!String::from_utf8_lossy(f).contains("host secret"));
    }

    // A record naming a folder outside its task folder is refused.
    let mut rec = TrialRecord::new("run-1", "t-a", "c", 0, "oracle");
    rec.trial_dir = Some("../../..".into());
    let p = dirs[0].join(nab_protocol::RESULTS_FILE);
    let mut text = std::fs::read_to_string(&p).unwrap();
    text.push_str(&(serde_json::to_string(&rec).unwrap() + "\n"));
    std::fs::write(&p, text).unwrap();
    let shards = open(&dirs);
    let joined = join(&shards, false).unwrap();
    let e = write(
        &joined,
        &shards,
        &root.path().join("m2"),
        &mut Budget::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("not a plain folder name"), "{e}");
}

#[test]
fn oversized_shard_files_are_refused_before_they_are_read_whole() {
    let root = tempfile::tempdir().unwrap();
    let dirs = three(root.path());
    std::fs::write(
        dirs[0].join(nab_protocol::RUN_META_FILE),
        vec![b' '; (shard_run::MAX_META + 1) as usize],
    )
    .unwrap();
    let e = ShardRun::open(&dirs[0], Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(nab_protocol::RUN_META_FILE) && e.contains("cap"),
        "{e}"
    );
    // A huge trial file stops the merge (not silently truncated).
    let shards = open(&dirs[1..]);
    let joined = join(&shards, true).unwrap();
    std::fs::write(
        dirs[1].join("trials/t-a/1/transcript.jsonl"),
        vec![b'x'; 2048],
    )
    .unwrap();
    let small = open_all(
        &dirs[1..],
        Limits {
            file: 1024,
            ..Limits::default()
        },
    )
    .unwrap();
    let e = write(
        &joined,
        &small,
        &root.path().join("m"),
        &mut Budget::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains(nab_protocol::TRANSCRIPT_FILE) && e.contains("1024-byte cap"),
        "{e}"
    );
    assert!(!root.path().join("m").exists(), "nothing half-written");
}

/// A sweep shard folder: `sweep.json` (shard k of n) and two run folders holding `pairs`.
fn sweep_shard(root: &Path, k: u32, n: u32, pairs: &[(&str, u32)]) -> PathBuf {
    use crate::run::sweep::SweepResume;
    use nab_protocol::{IndexProvider, IndexRun, SweepIndex};
    let dir = root.join(format!("sweep-{k}"));
    let runs: Vec<IndexRun> = ["01-oracle", "02-null"]
        .iter()
        .map(|d| {
            shard_named(&dir, d, k, n, pairs);
            IndexRun {
                dir: d.to_string(),
                agent: d[3..].to_string(),
                model: None,
                provider: None,
            }
        })
        .collect();
    let mut index =
        SweepIndex::begin(&dir, Path::new("s.yaml"), "sha256:sweep", runs, false).unwrap();
    index.started_at = format!("2026-12-01T03:0{k}:00.000Z");
    index.finished_at = Some(format!("2026-12-01T04:0{k}:00.000Z"));
    index.providers = vec![IndexProvider {
        name: "p".into(),
        requests: u64::from(k),
        slowed: 1,
        waited_ms: 10,
    }];
    index
        .check_sharding(&dir, false, Some(&meta(k, n).shard.unwrap()), Some("g1"))
        .unwrap();
    index.write(&dir).unwrap();
    dir
}

#[test]
fn sweep_shards_are_checked_as_one_sweep_and_their_index_merges() {
    use super::sweep::{SweepShards, check_out_is_replaceable, is_sweep};
    use nab_protocol::SweepIndex;
    let root = tempfile::tempdir().unwrap();
    let a = sweep_shard(root.path(), 1, 2, &[("t-a", 0), ("t-b", 1), ("t-c", 0)]);
    let b = sweep_shard(root.path(), 2, 2, &[("t-a", 1), ("t-b", 0), ("t-c", 1)]);
    assert!(is_sweep(&a) && !is_sweep(&a.join("01-oracle")));
    let shards = SweepShards::open(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(shards.run_dirs(), ["01-oracle", "02-null"]);
    // Each run's shards join as a run's do: every pair once.
    for dir in shards.run_dirs() {
        let joined = join(&open(&shards.run_shards(&dir)), false).unwrap();
        assert_eq!(joined.records.len(), 6, "{dir}");
    }
    let index = shards.merged_index();
    assert_eq!(index.started_at, "2026-12-01T03:01:00.000Z");
    assert_eq!(
        index.finished_at.as_deref(),
        Some("2026-12-01T04:02:00.000Z")
    );
    assert_eq!(index.shard, None);
    assert_eq!(index.group.as_deref(), Some("g1"));
    assert_eq!(index.merged_from, [a.clone(), b.clone()]);
    assert_eq!(
        (
            index.providers.len(),
            index.providers[0].requests,
            index.providers[0].waited_ms
        ),
        (1, 3, 20)
    );

    // The same shard twice, another sweep file, a folder that is not a shard.
    let e = SweepShards::open(&[a.clone(), a.clone()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("both are shard 1/2"), "{e}");
    let mut other = SweepIndex::read(&b).unwrap().unwrap();
    other.sweep_hash = "sha256:other".into();
    other.runs.pop();
    other.write(&b).unwrap();
    let e = SweepShards::open(&[a.clone(), b.clone()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("sweep file sha256:other (first shard: sha256:sweep)")
            && e.contains("other runs (01-oracle) than the first shard (01-oracle, 02-null)"),
        "{e}"
    );
    let e = SweepShards::open(&[a.clone(), a.join("01-oracle")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds no sweep.json"), "{e}");

    // --out: absent, empty or an earlier sweep merge; never a folder of the user's.
    check_out_is_replaceable(&root.path().join("new")).unwrap();
    let e = check_out_is_replaceable(&a).unwrap_err().to_string();
    assert!(e.contains("not an earlier sweep merge"), "{e}");
    let merged = root.path().join("merged");
    std::fs::create_dir_all(&merged).unwrap();
    index.write(&merged).unwrap();
    check_out_is_replaceable(&merged).unwrap();
}
