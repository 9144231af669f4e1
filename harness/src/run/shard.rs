//! `nab run --shard K/N`: which (task, trial) pairs shard K of N runs.
//!
//! Every shard computes the same plan on its own, with no coordinator: the pairs are
//! given a cost (the task's timeouts, or the mean duration of the task in an earlier run),
//! sorted by cost (largest first, ties by task id and trial), and each pair goes to the
//! shard with the least cost so far (ties to the lowest shard). This is the classic
//! longest-processing-time rule: deterministic, and the shards' loads end within one
//! pair's cost of each other. Costs are whole milliseconds so that no floating-point
//! rounding can make two machines cut the suite differently.
//!
//! The plan's hash goes into each shard's `run.json`; `nab merge` checks that the shards
//! share it.

use nab_protocol::TrialStatus;
use nab_protocol::{RunFolder, ShardMeta};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    #[error("--shard {0:?}: expected K/N with 1 <= K <= N (for example 2/5)")]
    Spec(String),
    #[error("--balance-from {dir}: {message}")]
    Balance { dir: String, message: String },
}

/// `K/N`: shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardSpec {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for ShardSpec {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, ShardError> {
        let bad = || ShardError::Spec(s.to_owned());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(ShardSpec { index, count })
    }
}

impl std::fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a task costs to run once, in milliseconds, and what the costs were taken from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Costs {
    pub per_task_ms: BTreeMap<String, u64>,
    /// `timeouts`, or `run:<hash>` (the durations taken from an earlier run, by content).
    pub balance: String,
}

fn ms(seconds: f64) -> u64 {
    // At least 1 ms, so a zero-length task still counts as one pair.
    ((seconds.max(0.0) * 1000.0).round() as u64).max(1)
}

impl Costs {
    /// Each task costs its agent timeout plus its verify timeout.
    pub fn from_timeouts(tasks: &[(String, f64)]) -> Costs {
        Costs {
            per_task_ms: tasks.iter().map(|(id, s)| (id.clone(), ms(*s))).collect(),
            balance: "timeouts".into(),
        }
    }

    /// Each task costs its mean duration (agent + verify) over the earlier run's trials
    /// that reached a verdict. A task the earlier run did not time is given its timeouts,
    /// scaled by how the timed tasks' durations compare with their timeouts.
    pub fn from_run(dir: &Path, tasks: &[(String, f64)]) -> Result<Costs, ShardError> {
        let err = |message: String| ShardError::Balance {
            dir: dir.display().to_string(),
            message,
        };
        let run = RunFolder::open(dir).map_err(|e| err(e.to_string()))?;
        // The last record of a pair wins (a resumed run retried it).
        let mut latest: BTreeMap<(&str, u32), (f64, TrialStatus)> = BTreeMap::new();
        for r in &run.records {
            latest.insert(
                (&r.task_id, r.trial),
                (r.outcome.agent_s + r.outcome.verify_s, r.outcome.status),
            );
        }
        let mut sums: BTreeMap<&str, (f64, u32)> = BTreeMap::new();
        for ((task, _), (secs, status)) in latest {
            if status != TrialStatus::Error && secs.is_finite() {
                let e = sums.entry(task).or_default();
                e.0 += secs;
                e.1 += 1;
            }
        }
        let measured: BTreeMap<&str, u64> = sums
            .into_iter()
            .map(|(t, (s, n))| (t, ms(s / f64::from(n))))
            .collect();
        let (mut timed, mut limit) = (0u64, 0u64);
        for (id, timeout) in tasks {
            if let Some(m) = measured.get(id.as_str()) {
                timed += m;
                limit += ms(*timeout);
            }
        }
        if limit == 0 {
            return Err(err(
                "has no timed trial of any task in this suite (balance by timeouts instead: leave --balance-from out)".into(),
            ));
        }
        let per_task_ms: BTreeMap<String, u64> = tasks
            .iter()
            .map(|(id, timeout)| {
                let cost = match measured.get(id.as_str()) {
                    Some(m) => *m,
                    // Integer arithmetic: the same on every machine.
                    None => ((u128::from(ms(*timeout)) * u128::from(timed) / u128::from(limit))
                        as u64)
                        .max(1),
                };
                (id.clone(), cost)
            })
            .collect();
        let mut h = Sha256::new();
        for (id, c) in &per_task_ms {
            h.update(format!("{id}\t{c}\n"));
        }
        Ok(Costs {
            per_task_ms,
            balance: format!("run:{:x}", h.finalize()),
        })
    }
}

/// The whole assignment of pairs to shards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub count: u32,
    /// (task, trial) → 1-based shard.
    pub shard_of: BTreeMap<(String, u32), u32>,
    /// Total cost per shard (index 0 is shard 1).
    pub loads: Vec<u64>,
    pub balance: String,
}

impl Plan {
    /// Cuts `task_ids × 0..trials` into `count` shares balanced by `costs`. A task missing
    /// from `costs` costs 1 ms.
    pub fn new(task_ids: &[String], trials: u32, count: u32, costs: &Costs) -> Plan {
        let count = count.max(1);
        let mut pairs: Vec<(u64, &str, u32)> = task_ids
            .iter()
            .flat_map(|t| {
                let c = costs.per_task_ms.get(t).copied().unwrap_or(1);
                (0..trials).map(move |i| (c, t.as_str(), i))
            })
            .collect();
        pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)).then(a.2.cmp(&b.2)));
        pairs.dedup_by(|a, b| a.1 == b.1 && a.2 == b.2);
        let mut loads = vec![0u64; count as usize];
        let mut shard_of = BTreeMap::new();
        for (cost, task, trial) in pairs {
            let (least, _) = loads
                .iter()
                .enumerate()
                .min_by_key(|(i, l)| (**l, *i))
                .unwrap_or((0, &0));
            loads[least] += cost;
            shard_of.insert((task.to_owned(), trial), least as u32 + 1);
        }
        Plan {
            count,
            shard_of,
            loads,
            balance: costs.balance.clone(),
        }
    }

    /// The pairs of shard `index` (1-based), in task then trial order.
    pub fn share(&self, index: u32) -> Vec<(String, u32)> {
        self.shard_of
            .iter()
            .filter(|(_, s)| **s == index)
            .map(|(p, _)| p.clone())
            .collect()
    }

    /// `sha256:<hex>` of the count, the balance and every pair's shard.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        h.update(format!(
            "count\t{}\nbalance\t{}\n",
            self.count, self.balance
        ));
        for ((task, trial), shard) in &self.shard_of {
            h.update(format!("{task}\t{trial}\t{shard}\n"));
        }
        format!("sha256:{:x}", h.finalize())
    }

    /// What `run.json` records for shard `index`.
    pub fn meta(&self, index: u32) -> ShardMeta {
        ShardMeta {
            index,
            count: self.count,
            balance: self.balance.clone(),
            plan: self.hash(),
        }
    }
}

/// One shard's share of a run: what its `run.json` records and which pairs it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    pub meta: ShardMeta,
    pub pairs: std::collections::BTreeSet<(String, u32)>,
    /// Pairs in the whole run (every shard's).
    pub total: u64,
    pub balance: String,
}

impl Share {
    /// Shard `spec` of `tasks` (id, agent + verify timeout in seconds) × `0..trials`,
    /// balanced by the timeouts or by the durations of the run folder `balance_from`.
    /// `nab run --shard` and `nab sweep --shard` cut with this one function, so a sweep's
    /// every run is cut exactly as `nab run` would cut it.
    pub fn cut(
        tasks: &[(String, f64)],
        trials: u32,
        spec: ShardSpec,
        balance_from: Option<&Path>,
    ) -> Result<Share, ShardError> {
        let costs = match balance_from {
            Some(dir) => Costs::from_run(dir, tasks)?,
            None => Costs::from_timeouts(tasks),
        };
        let ids: Vec<String> = tasks.iter().map(|(id, _)| id.clone()).collect();
        let plan = Plan::new(&ids, trials, spec.count, &costs);
        Ok(Share {
            meta: plan.meta(spec.index),
            pairs: plan.share(spec.index).into_iter().collect(),
            total: ids.len() as u64 * u64::from(trials),
            balance: plan.balance,
        })
    }

    /// Whether this shard runs `trial` of `task`.
    pub fn has(&self, task: &str, trial: u32) -> bool {
        self.pairs.contains(&(task.to_owned(), trial))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("task-{i:02}")).collect()
    }

    fn uneven(ids: &[String]) -> Costs {
        // Costs from 1 s to ~30 min, deliberately lumpy.
        let tasks: Vec<(String, f64)> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                (
                    id.clone(),
                    [720.0, 1800.0, 300.0, 1.0, 1500.0][i % 5] + i as f64,
                )
            })
            .collect();
        Costs::from_timeouts(&tasks)
    }

    #[test]
    fn shard_specs_parse_and_nonsense_is_refused() {
        let s: ShardSpec = "2/5".parse().unwrap();
        assert_eq!((s.index, s.count), (2, 5));
        assert_eq!(s.to_string(), "2/5");
        for bad in ["0/3", "4/3", "1/0", "1", "a/b", "1/2/3", "", "-1/3"] {
            let e = bad.parse::<ShardSpec>().unwrap_err().to_string();
            assert!(e.contains("K/N"), "{bad}: {e}");
        }
    }

    #[test]
    fn shares_are_disjoint_cover_every_pair_and_are_the_same_every_time() {
        let ids = ids(28);
        let costs = uneven(&ids);
        for count in 1..=9 {
            let plan = Plan::new(&ids, 5, count, &costs);
            let again = Plan::new(&ids, 5, count, &costs);
            assert_eq!(plan, again);
            assert_eq!(plan.hash(), again.hash());
            // Order of the task list does not change the plan.
            let mut reversed = ids.clone();
            reversed.reverse();
            assert_eq!(Plan::new(&reversed, 5, count, &costs).hash(), plan.hash());
            let mut seen = BTreeSet::new();
            for k in 1..=count {
                for p in plan.share(k) {
                    assert!(seen.insert(p.clone()), "{p:?} in two shards");
                }
            }
            let all: BTreeSet<_> = ids
                .iter()
                .flat_map(|t| (0..5).map(move |i| (t.clone(), i)))
                .collect();
            assert_eq!(seen, all, "count {count}");
        }
    }

    #[test]
    fn shares_are_balanced_within_one_pair() {
        let ids = ids(28);
        let costs = uneven(&ids);
        let biggest = *costs.per_task_ms.values().max().unwrap();
        for (trials, count) in [(1, 2), (1, 3), (5, 3), (5, 7), (3, 28), (1, 40)] {
            let plan = Plan::new(&ids, trials, count, &costs);
            // The loads are what the shares cost.
            for k in 1..=count {
                let cost: u64 = plan
                    .share(k)
                    .iter()
                    .map(|(t, _)| costs.per_task_ms[t])
                    .sum();
                assert_eq!(cost, plan.loads[k as usize - 1]);
            }
            let (max, min) = (
                plan.loads.iter().max().unwrap(),
                plan.loads.iter().min().unwrap(),
            );
            assert!(max - min <= biggest, "{trials}x{count}: {:?}", plan.loads);
        }
        // Many equal pairs split evenly: 28 tasks × 3 trials over 4 shards = 21 each.
        let flat = Costs::from_timeouts(&ids.iter().map(|i| (i.clone(), 60.0)).collect::<Vec<_>>());
        let plan = Plan::new(&ids, 3, 4, &flat);
        assert!(
            (1..=4).all(|k| plan.share(k).len() == 21),
            "{:?}",
            plan.loads
        );
        // More shards than pairs: some shares are empty, none is lost.
        let plan = Plan::new(&ids[..2], 1, 5, &flat);
        assert_eq!((1..=5).map(|k| plan.share(k).len()).sum::<usize>(), 2);
    }

    #[test]
    fn different_balances_or_counts_are_different_plans() {
        let ids = ids(10);
        let a = Plan::new(&ids, 2, 3, &uneven(&ids));
        let flat = Costs::from_timeouts(&ids.iter().map(|i| (i.clone(), 60.0)).collect::<Vec<_>>());
        assert_ne!(a.hash(), Plan::new(&ids, 2, 3, &flat).hash());
        assert_ne!(a.hash(), Plan::new(&ids, 2, 4, &uneven(&ids)).hash());
        assert_ne!(a.hash(), Plan::new(&ids, 3, 3, &uneven(&ids)).hash());
        let m = a.meta(2);
        assert_eq!((m.index, m.count, m.plan.clone()), (2, 3, a.hash()));
    }

    #[test]
    fn an_earlier_run_balances_by_its_durations_and_scales_the_tasks_it_did_not_time() {
        use nab_protocol::TrialRecord;
        let dir = tempfile::tempdir().unwrap();
        let rec = |task: &str, trial, secs: f64, status| {
            let mut r = TrialRecord::new("r", task, "c", trial, "oracle");
            r.outcome.agent_s = secs;
            r.outcome.verify_s = 1.0;
            r.outcome.status = status;
            r
        };
        let records = [
            rec("a", 0, 9.0, TrialStatus::Passed),
            rec("a", 1, 19.0, TrialStatus::Failed),
            // An error does not count; a retried pair counts once, its last record.
            rec("b", 0, 500.0, TrialStatus::Error),
            rec("b", 1, 100.0, TrialStatus::Error),
            rec("b", 1, 3.0, TrialStatus::Passed),
        ];
        nab_protocol::write_jsonl_atomic(
            &nab_protocol::RunPaths::new(dir.path()).results(),
            &records,
        )
        .unwrap();
        let tasks = [
            ("a".to_owned(), 100.0),
            ("b".to_owned(), 100.0),
            ("c".to_owned(), 50.0),
        ];
        let costs = Costs::from_run(dir.path(), &tasks).unwrap();
        // a: mean of 10 and 20 s; b: 4 s; c: 50 s of timeout × (34 s timed / 200 s).
        assert_eq!(costs.per_task_ms["a"], 15_000);
        assert_eq!(costs.per_task_ms["b"], 4_000);
        assert_eq!(costs.per_task_ms["c"], 50_000 * 19_000 / 200_000);
        assert!(costs.balance.starts_with("run:"));
        assert_eq!(Costs::from_run(dir.path(), &tasks).unwrap(), costs);

        let e = Costs::from_run(dir.path(), &[("z".to_owned(), 1.0)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("no timed trial"), "{e}");
        let e = Costs::from_run(&dir.path().join("nope"), &tasks)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--balance-from") && e.contains("nope"), "{e}");
    }
}
