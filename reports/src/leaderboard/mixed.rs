//! Whether the runs of a leaderboard used the same suite: the same task ids and, where
//! run.json records it, the same suite hash (`tasks_hash`, see [`nab_protocol::suite_hash`]).
//! Ranks over different tasks or different versions of them compare nothing, so the
//! leaderboard refuses them unless `--allow-mixed` is given, and then says so.
//!
//! Runs of different subsets of one suite are not mixed: when every run records each
//! task's own hash (`task_hashes`) and every task two runs share has the same hash in both,
//! they are ranked on the tasks all of them ran, and a note says so.

use crate::run::Run;
use std::collections::BTreeSet;

/// How many task ids a difference lists before it says "and N more".
const LIST: usize = 8;

/// The tasks a run set out to do: run.json's `task_ids`, else the tasks it has records of.
pub fn task_set(run: &Run) -> BTreeSet<String> {
    if run.meta.task_ids.is_empty() {
        run.tasks
            .iter()
            .map(|t| t.task_id.clone())
            .chain(run.quarantined.iter().map(|q| q.task_id.clone()))
            .collect()
    } else {
        run.meta.task_ids.iter().cloned().collect()
    }
}

fn listed<'a>(ids: impl Iterator<Item = &'a String>) -> String {
    let ids: Vec<&String> = ids.collect();
    let mut s: Vec<String> = ids
        .iter()
        .take(LIST)
        .map(|i| super::display::short(i))
        .collect();
    if ids.len() > LIST {
        s.push(format!("and {} more", ids.len() - LIST));
    }
    s.join(", ")
}

/// Whether the runs are subsets of one suite: `Some(true)` when every run records each of
/// its tasks' hashes and no task has two, `Some(false)` when some task has two, `None` when
/// some run does not record them (older runs).
fn same_task_versions(runs: &[&Run]) -> Option<bool> {
    let mut seen: std::collections::BTreeMap<&str, &str> = Default::default();
    let mut agree = true;
    for run in runs {
        for id in task_set(run) {
            let hash = run.meta.task_hashes.get(&id)?;
            let id = run.meta.task_hashes.get_key_value(&id)?.0.as_str();
            agree &= *seen.entry(id).or_insert(hash) == hash.as_str();
        }
    }
    Some(agree)
}

/// The tasks whose recorded hashes differ between `a` and `b`.
fn changed_tasks<'a>(a: &'a Run, b: &Run) -> Vec<&'a String> {
    a.meta
        .task_hashes
        .iter()
        .filter(|(id, h)| b.meta.task_hashes.get(*id).is_some_and(|o| o != *h))
        .map(|(id, _)| id)
        .collect()
}

/// One sentence per difference between each run and the first (`labels[i]` names run i).
/// Empty when every run used the same tasks and no two recorded hashes differ, or when the
/// runs are subsets of one suite ([`subsets`] says so instead).
pub fn differences(labels: &[String], runs: &[&Run]) -> Vec<String> {
    let mut out = Vec::new();
    let (Some(first), Some(first_label)) = (runs.first(), labels.first()) else {
        return out;
    };
    if same_task_versions(runs) == Some(true) {
        return out;
    }
    let base = task_set(first);
    for (run, label) in runs.iter().zip(labels).skip(1) {
        let set = task_set(run);
        if set != base {
            out.push(task_set_difference(first_label, &base, label, &set));
        }
        let changed = changed_tasks(first, run);
        if !changed.is_empty() {
            out.push(format!(
                "different versions of the same tasks: {first_label} and {label} ran different files of {}",
                listed(changed.into_iter())
            ));
        } else if let (Some(a), Some(b)) = (&first.meta.tasks_hash, &run.meta.tasks_hash)
            && a != b
            && set == base
        {
            out.push(format!(
                "different suite versions: {first_label} ran {} and {label} ran {} (run.json tasks_hash)",
                super::display::short(a),
                super::display::short(b)
            ));
        }
    }
    out
}

fn task_set_difference(
    first_label: &str,
    base: &BTreeSet<String>,
    label: &str,
    set: &BTreeSet<String>,
) -> String {
    let only_first: Vec<&String> = base.difference(set).collect();
    let only_this: Vec<&String> = set.difference(base).collect();
    let mut s = format!(
        "different task sets: {first_label} has {} tasks, {label} has {}",
        base.len(),
        set.len()
    );
    if !only_first.is_empty() {
        s.push_str(&format!(
            "; only in {first_label}: {}",
            listed(only_first.into_iter())
        ));
    }
    if !only_this.is_empty() {
        s.push_str(&format!(
            "; only in {label}: {}",
            listed(only_this.into_iter())
        ));
    }
    s
}

/// The note for runs of different subsets of one suite: what each ran, and that the page
/// ranks them on the tasks all of them ran. `None` when the task sets are the same or the
/// runs are not subsets of one suite.
pub fn subsets(labels: &[String], runs: &[&Run]) -> Option<String> {
    let sets: Vec<BTreeSet<String>> = runs.iter().map(|r| task_set(r)).collect();
    if sets.windows(2).all(|w| w[0] == w[1]) || same_task_versions(runs) != Some(true) {
        return None;
    }
    let sizes: Vec<String> = labels
        .iter()
        .zip(&sets)
        .map(|(l, s)| format!("{l} ran {}", s.len()))
        .collect();
    Some(format!(
        "These runs cover different subsets of one suite (every task two of them share has the same files in both: run.json task_hashes): {}. Every figure uses only the tasks all of them ran (the common tasks, listed at the end).",
        sizes.join(", ")
    ))
}

/// Runs whose run.json records no suite hash (older runs): their suite version is unknown.
pub fn unchecked(labels: &[String], runs: &[&Run]) -> Vec<String> {
    runs.iter()
        .zip(labels)
        .filter(|(r, _)| r.meta.tasks_hash.is_none())
        .map(|(_, l)| {
            format!(
                "{l} records no suite hash (run.json tasks_hash): its suite version is not checked"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::RunMeta;
    use nab_protocol::TrialRecord;
    use std::path::Path;

    fn run(ids: &[&str], hash: Option<&str>) -> Run {
        let meta = RunMeta {
            task_ids: ids.iter().map(|s| (*s).to_owned()).collect(),
            tasks_hash: hash.map(str::to_owned),
            ..RunMeta::default()
        };
        let recs = ids
            .iter()
            .map(|id| TrialRecord::new("r", id, "c", 0, "a"))
            .collect();
        Run::from_records(Path::new("r"), meta, recs, false)
    }

    /// A run that records each task's hash (`v` names the version of every task).
    fn versioned(ids: &[&str], v: &str) -> Run {
        let mut r = run(ids, Some(&format!("sha256:suite-{}", ids.len())));
        r.meta.task_hashes = ids
            .iter()
            .map(|id| ((*id).to_owned(), format!("sha256:{id}-{v}")))
            .collect();
        r
    }

    #[test]
    fn subsets_of_one_suite_are_not_mixed_and_are_said() {
        let all = versioned(&["x", "y", "z"], "1");
        let part = versioned(&["x", "y"], "1");
        assert!(differences(&labels(2), &[&all, &part]).is_empty());
        let note = subsets(&labels(2), &[&all, &part]).unwrap();
        assert!(note.contains("run0 ran 3, run1 ran 2"), "{note}");
        // The same task set is no subset to speak of.
        assert_eq!(subsets(&labels(2), &[&all, &all]), None);
        // A shared task with other files is a difference, named.
        let mut changed = versioned(&["x", "y"], "1");
        changed
            .meta
            .task_hashes
            .insert("y".into(), "sha256:y-2".into());
        let d = differences(&labels(2), &[&all, &changed]);
        assert!(
            d.iter()
                .any(|m| m.contains("different versions of the same tasks") && m.contains('y')),
            "{d:?}"
        );
        assert_eq!(subsets(&labels(2), &[&all, &changed]), None);
        // Without per-task hashes (older runs), different task sets stay a difference.
        let old = run(&["x", "y"], Some("sha256:old"));
        assert!(!differences(&labels(2), &[&all, &old]).is_empty());
    }

    fn labels(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("run{i}")).collect()
    }

    #[test]
    fn the_same_tasks_and_hash_are_not_mixed() {
        let (a, b) = (
            run(&["x", "y"], Some("sha256:1")),
            run(&["y", "x"], Some("sha256:1")),
        );
        assert!(differences(&labels(2), &[&a, &b]).is_empty());
        assert!(unchecked(&labels(2), &[&a, &b]).is_empty());
    }

    #[test]
    fn different_tasks_or_hashes_are_named() {
        let a = run(&["x", "y"], Some("sha256:1"));
        let b = run(&["x", "z"], Some("sha256:1"));
        let d = differences(&labels(2), &[&a, &b]);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].contains("only in run0: y") && d[0].contains("only in run1: z"),
            "{d:?}"
        );
        let c = run(&["x", "y"], Some("sha256:2"));
        let d = differences(&labels(2), &[&a, &c]);
        assert!(
            d[0].contains("different suite versions") && d[0].contains("sha256:2"),
            "{d:?}"
        );
        // An unknown hash is not a difference, but it is said.
        let old = run(&["x", "y"], None);
        assert!(differences(&labels(2), &[&a, &old]).is_empty());
        assert_eq!(unchecked(&labels(2), &[&a, &old]).len(), 1);
    }
}
