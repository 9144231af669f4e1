//! Whether the runs of a leaderboard used the same suite: the same task ids and, where
//! run.json records it, the same suite hash (`tasks_hash`, see [`nab_protocol::suite_hash`]).
//! Ranks over different tasks or different versions of them compare nothing, so the
//! leaderboard refuses them unless `--allow-mixed` is given, and then says so.

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

/// One sentence per difference between each run and the first (`labels[i]` names run i).
/// Empty when every run used the same tasks and no two recorded hashes differ.
pub fn differences(labels: &[String], runs: &[&Run]) -> Vec<String> {
    let mut out = Vec::new();
    let (Some(first), Some(first_label)) = (runs.first(), labels.first()) else {
        return out;
    };
    let base = task_set(first);
    for (run, label) in runs.iter().zip(labels).skip(1) {
        let set = task_set(run);
        if set != base {
            let only_first: Vec<&String> = base.difference(&set).collect();
            let only_this: Vec<&String> = set.difference(&base).collect();
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
            out.push(s);
        }
        if let (Some(a), Some(b)) = (&first.meta.tasks_hash, &run.meta.tasks_hash)
            && a != b
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
