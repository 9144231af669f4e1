//! The trials of `nab validate` and its verdicts: every task's oracle must pass; the null
//! agent and every known-wrong solution must fail. With `--repeat N` each of them runs N
//! times, and a task whose verdicts differ between runs is unstable: a flaky check would
//! make every score on it noise.

use super::Job;
use crate::task::Task;
use crate::trial::AgentKind;
use nab_protocol::{TrialRecord, TrialStatus};
use std::fmt::Write as _;
use std::sync::Arc;

/// The oracle, the null agent and every known-wrong solution of each task, `repeat` times
/// each (folders `oracle`, or `oracle.<i>` when repeated), the slowest tasks' first: a
/// check's time is mostly its verification (building and running the hidden tests), so
/// tasks are ordered by their verify timeout, longest first, and the long checks start
/// while the short ones fill the other slots instead of trailing at the end.
///
/// The checks that must fail (null, wrong) stop at their first failing test unless
/// `all_tests`: one failure settles their verdict, and a solution that passes every test
/// still runs them all, so the verdicts are the ones a full run gives.
pub fn jobs(tasks: &[Arc<Task>], repeat: u32, all_tests: bool) -> Vec<Job> {
    let mut by_cost: Vec<&Arc<Task>> = tasks.iter().collect();
    by_cost.sort_by(|a, b| {
        let cost = |t: &Task| t.spec.timeouts.verify_s + t.spec.timeouts.agent_s / 10.0;
        cost(b).total_cmp(&cost(a))
    });
    let mut jobs = Vec::new();
    for t in by_cost {
        let mut agents = vec![AgentKind::Oracle, AgentKind::Null];
        agents.extend(t.wrong.iter().map(|w| AgentKind::Wrong(w.clone())));
        for a in agents {
            for trial in 0..repeat {
                let dir_name = if repeat == 1 {
                    a.label()
                } else {
                    format!("{}.{trial}", a.label())
                };
                jobs.push(Job {
                    task: t.clone(),
                    dir_name,
                    stop_at_first_failure: !all_tests && a != AgentKind::Oracle,
                    agent: a.clone(),
                    trial,
                });
            }
        }
    }
    jobs
}

/// `nab validate`'s `-j` when none is given: two checks per processor, as many as the
/// memory available holds at the largest task's memory limit (each check runs one
/// container at a time under that limit), and at least one. Two, because a check is not
/// busy all its time: containers are made and removed, tests wait on the MCP servers'
/// rate limits and on the broker, and each container is held to its `cpus:` limit; a
/// second check per processor fills those gaps (three tasks' 37 checks took 209 s at -j 4
/// against 281 s at -j 2 on 2 idle cores, every verdict the same; benches/README.md).
pub fn default_jobs(tasks: &[Arc<Task>]) -> usize {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let need_mb = tasks
        .iter()
        .map(|t| t.spec.limits.memory_mb.max(1) as u64)
        .max()
        .unwrap_or(1);
    let width = cpus * CHECKS_PER_PROCESSOR;
    let fit = available_memory_mb().map_or(width, |mb| (mb / need_mb) as usize);
    width.min(fit).max(1)
}

/// Checks run at once per processor by default (see [`default_jobs`]).
pub const CHECKS_PER_PROCESSOR: usize = 2;

/// MemAvailable from /proc/meminfo, in MiB (none where there is no such file).
fn available_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The table `nab validate` prints, its problem count and the tasks whose verdicts
/// differ between repeated runs.
pub struct Verdicts {
    pub table: String,
    pub problems: usize,
    pub unstable: Vec<String>,
}

/// What one agent got on one task over its runs: `pass`, `fail`, `ERROR`, or the mix
/// (`pass 2/3`) when the runs disagree.
fn show(rs: &[&TrialRecord]) -> String {
    let word = |s: TrialStatus| match s {
        TrialStatus::Passed => "pass",
        TrialStatus::Failed => "fail",
        TrialStatus::Error => "ERROR",
    };
    let Some(first) = rs.first() else {
        return "-".into();
    };
    if rs.iter().all(|r| r.outcome.status == first.outcome.status) {
        return word(first.outcome.status).into();
    }
    let passed = rs
        .iter()
        .filter(|r| r.outcome.status == TrialStatus::Passed)
        .count();
    format!("pass {passed}/{}", rs.len())
}

/// One row per task: what each agent got, and whether that is what it should get.
pub fn verdicts(tasks: &[Arc<Task>], records: &[TrialRecord]) -> Verdicts {
    let w = tasks.iter().map(|t| t.id().len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:<8}  {:<8}  {:<16}  verdict",
        "task", "oracle", "null", "wrong"
    );
    let mut problems = 0;
    let mut unstable = Vec::new();
    for t in tasks {
        let get = |agent: &str| -> Vec<&TrialRecord> {
            records
                .iter()
                .filter(|r| r.task_id == t.id() && r.agent == agent)
                .collect()
        };
        let mut issues = Vec::new();
        let mut mixed = false;
        let mut expect = |name: &str, rs: &[&TrialRecord], want: TrialStatus| {
            if rs.is_empty() || rs.iter().any(|r| r.outcome.status != want) {
                let must = if want == TrialStatus::Passed {
                    "pass"
                } else {
                    "fail"
                };
                issues.push(format!("{name} {} (must {must})", show(rs)));
            }
            mixed |= rs.iter().any(|r| r.outcome.status != rs[0].outcome.status);
        };
        let oracle = get("oracle");
        expect("oracle", &oracle, TrialStatus::Passed);
        let null = get("null");
        expect("null", &null, TrialStatus::Failed);
        let mut wrong_cells = Vec::new();
        for name in &t.wrong {
            let rs = get(&format!("wrong:{name}"));
            wrong_cells.push(show(&rs));
            expect(&format!("wrong/{name}"), &rs, TrialStatus::Failed);
        }
        if mixed {
            unstable.push(t.id().to_owned());
        }
        for r in oracle.iter().chain(&null) {
            if let Some(e) = &r.outcome.error {
                issues.push(format!("{}: {e}", r.agent));
            }
        }
        let wrong = if t.spec.origin.is_some() && wrong_cells.is_empty() {
            // A converter cannot invent plausible wrong fixes; the check is skipped, openly.
            "skipped:imported".to_owned()
        } else if wrong_cells.is_empty() {
            "(none)".to_owned()
        } else {
            wrong_cells.join(",")
        };
        let verdict = if issues.is_empty() {
            "ok".to_owned()
        } else {
            format!("PROBLEM: {}", issues.join("; "))
        };
        problems += issues.len();
        let _ = writeln!(
            out,
            "{:<w$}  {:<8}  {:<8}  {:<16}  {verdict}",
            t.id(),
            show(&oracle),
            show(&null),
            wrong
        );
    }
    Verdicts {
        table: out,
        problems,
        unstable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task() -> Arc<crate::task::Task> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tasks/py-pagination-offbyone");
        Arc::new(crate::task::load_task(&dir).expect("a shipped task"))
    }

    fn rec(task: &str, agent: &str, trial: u32, status: TrialStatus) -> TrialRecord {
        let mut r = TrialRecord::new("r", task, "bug-fix", trial, agent);
        r.outcome.status = status;
        r
    }

    fn runs(t: &crate::task::Task, oracle: &[TrialStatus]) -> Vec<TrialRecord> {
        let mut out = Vec::new();
        for (i, s) in oracle.iter().enumerate() {
            let i = i as u32;
            out.push(rec(t.id(), "oracle", i, *s));
            out.push(rec(t.id(), "null", i, TrialStatus::Failed));
            for w in &t.wrong {
                out.push(rec(t.id(), &format!("wrong:{w}"), i, TrialStatus::Failed));
            }
        }
        out
    }

    #[test]
    fn the_slowest_tasks_checks_come_first_and_the_default_width_fits_the_machine() {
        let tasks_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks");
        let tasks: Vec<Arc<Task>> = [
            "py-pagination-offbyone",
            "go-relay-key-ordering",
            "sh-csv-quoting",
        ]
        .iter()
        .map(|id| Arc::new(crate::task::load_task(&tasks_dir.join(id)).unwrap()))
        .collect();
        let checks = jobs(&tasks, 1, false);
        let order: Vec<f64> = checks
            .iter()
            .map(|j| j.task.spec.timeouts.verify_s)
            .collect();
        assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");
        // Only the checks that must fail stop at their first failing test, and none with
        // --all-tests.
        for j in &checks {
            let must_fail = j.agent != AgentKind::Oracle;
            assert_eq!(j.stop_at_first_failure, must_fail, "{}", j.dir_name);
        }
        assert!(
            jobs(&tasks, 2, true)
                .iter()
                .all(|j| !j.stop_at_first_failure)
        );
        let j = default_jobs(&tasks);
        let cpus = std::thread::available_parallelism().unwrap().get();
        assert!(j >= 1 && j <= cpus * CHECKS_PER_PROCESSOR, "{j} of {cpus}");
        // This machine's memory holds more than two checks per processor at these tasks'
        // limits (2 GiB at most), so the default is exactly two per processor.
        if available_memory_mb().is_some_and(|mb| mb >= 4096 * cpus as u64) {
            assert_eq!(j, cpus * CHECKS_PER_PROCESSOR);
        }
    }

    #[test]
    fn repeated_runs_that_agree_are_valid_and_stable() {
        let t = task();
        let v = verdicts(
            std::slice::from_ref(&t),
            &runs(&t, &[TrialStatus::Passed; 3]),
        );
        assert_eq!((v.problems, v.unstable.len()), (0, 0), "{}", v.table);
        assert!(v.table.contains(" ok"), "{}", v.table);
    }

    #[test]
    fn an_oracle_that_passes_two_runs_of_three_is_unstable_and_a_problem() {
        let t = task();
        let statuses = [
            TrialStatus::Passed,
            TrialStatus::Failed,
            TrialStatus::Passed,
        ];
        let v = verdicts(std::slice::from_ref(&t), &runs(&t, &statuses));
        assert_eq!(v.unstable, [t.id()]);
        assert_eq!(v.problems, 1, "{}", v.table);
        assert!(
            v.table.contains("oracle pass 2/3 (must pass)"),
            "{}",
            v.table
        );
    }

    #[test]
    fn an_imported_task_without_wrong_solutions_says_the_check_is_skipped() {
        let mut t = (*task()).clone();
        t.wrong.clear();
        t.spec.origin = Some(crate::task::Origin::Harbor);
        let t = Arc::new(t);
        let v = verdicts(std::slice::from_ref(&t), &runs(&t, &[TrialStatus::Passed]));
        assert_eq!(v.problems, 0, "{}", v.table);
        assert!(v.table.contains("skipped:imported"), "{}", v.table);
    }

    #[test]
    fn a_missing_verdict_is_a_problem() {
        let t = task();
        let v = verdicts(std::slice::from_ref(&t), &[]);
        assert!(v.problems >= 2, "{}", v.table);
        assert!(v.table.contains("oracle - (must pass)"), "{}", v.table);
    }
}
