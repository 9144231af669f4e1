//! The sweep's dispatcher: one process, the global `jobs` limit, and each provider pool's
//! `concurrency`. Units start in plan order (interleaved, [`super::plan`]), except that a
//! unit whose pool is full is passed over rather than waited for, so a slow or
//! rate-limited provider never holds back the units of the others.
//!
//! Cancellation stops new starts; running units see the same token and end themselves.

use super::plan::Unit;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use tokio_util::sync::CancellationToken;

/// How many units may run at once: overall, and per pool (None: no pool limit).
#[derive(Debug, Clone)]
pub(super) struct Slots {
    pub jobs: usize,
    pub pools: Vec<Option<usize>>,
}

/// A unit whose task panicked (a bug): reported, never silently dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Panicked(pub Unit);

/// Runs `units` through `start`, at most `slots` at once, handing each outcome to `done`
/// as it comes. `pool_of` names the pool a unit counts against. Returns the units that
/// panicked.
pub(super) async fn dispatch<T, F, Fut>(
    units: Vec<Unit>,
    pool_of: impl Fn(&Unit) -> Option<usize>,
    slots: &Slots,
    cancel: &CancellationToken,
    start: F,
    mut done: impl FnMut(Unit, T),
) -> Vec<Panicked>
where
    F: Fn(Unit) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let mut pending: VecDeque<Unit> = units.into();
    let mut in_pool = vec![0usize; slots.pools.len()];
    let mut running: HashMap<tokio::task::Id, Unit> = HashMap::new();
    let mut set = tokio::task::JoinSet::new();
    let mut panicked = Vec::new();
    loop {
        while !cancel.is_cancelled() && running.len() < slots.jobs.max(1) {
            let free = |u: &Unit| match pool_of(u) {
                Some(p) => slots
                    .pools
                    .get(p)
                    .copied()
                    .flatten()
                    .is_none_or(|cap| in_pool[p] < cap),
                None => true,
            };
            let Some(i) = pending.iter().position(free) else {
                break;
            };
            let Some(unit) = pending.remove(i) else {
                break;
            };
            if let Some(p) = pool_of(&unit) {
                in_pool[p] += 1;
            }
            let handle = set.spawn(start(unit));
            running.insert(handle.id(), unit);
        }
        let Some(joined) = set.join_next_with_id().await else {
            break;
        };
        let (id, outcome) = match joined {
            Ok((id, t)) => (id, Some(t)),
            Err(e) => (e.id(), None),
        };
        let Some(unit) = running.remove(&id) else {
            continue;
        };
        if let Some(p) = pool_of(&unit) {
            in_pool[p] = in_pool[p].saturating_sub(1);
        }
        match outcome {
            Some(t) => done(unit, t),
            None => panicked.push(Panicked(unit)),
        }
    }
    panicked
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    fn units(runs: usize, tasks: usize, trials: u32) -> Vec<Unit> {
        let mut out = Vec::new();
        for trial in 0..trials {
            for task in 0..tasks {
                for run in 0..runs {
                    out.push(Unit { run, task, trial });
                }
            }
        }
        out
    }

    #[derive(Default)]
    struct Gauge {
        now: usize,
        per_pool: [usize; 2],
        max: usize,
        max_per_pool: [usize; 2],
    }

    /// Run 0's pool takes one unit at a time, and its first unit cannot finish until every
    /// unit of run 1 has: a dispatcher that waited for the full pool instead of passing
    /// over it would hang. No limit is ever exceeded.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_pool_is_passed_over_and_limits_hold() {
        let gauge: Arc<Mutex<Gauge>> = Arc::default();
        let started: Arc<Mutex<Vec<Unit>>> = Arc::default();
        let release = Arc::new(tokio::sync::Semaphore::new(0));
        let slots = Slots {
            jobs: 3,
            pools: vec![Some(1), None],
        };
        let (g, st, rel) = (gauge.clone(), started.clone(), release.clone());
        let mut finished: Vec<Unit> = Vec::new();
        let cancel = CancellationToken::new();
        let run = dispatch(
            units(2, 3, 2),
            |u| Some(u.run),
            &slots,
            &cancel,
            move |u| {
                let (g, rel) = (g.clone(), rel.clone());
                // Recorded when the dispatcher starts the unit, not when its task is first
                // polled: on two worker threads, spawned tasks are polled in any order.
                st.lock().unwrap().push(u);
                async move {
                    {
                        let mut g = g.lock().unwrap();
                        g.now += 1;
                        g.per_pool[u.run] += 1;
                        g.max = g.max.max(g.now);
                        g.max_per_pool[u.run] = g.max_per_pool[u.run].max(g.per_pool[u.run]);
                    }
                    if u.run == 0 {
                        if let Ok(p) = rel.acquire().await {
                            p.forget();
                        }
                    } else {
                        tokio::task::yield_now().await;
                    }
                    let mut g = g.lock().unwrap();
                    g.now -= 1;
                    g.per_pool[u.run] -= 1;
                }
            },
            |u, ()| {
                finished.push(u);
                if finished.iter().filter(|f| f.run == 1).count() == 6 {
                    release.add_permits(6);
                }
            },
        );
        let panicked = tokio::time::timeout(Duration::from_secs(60), run)
            .await
            .expect("run 1 was held back behind run 0's full pool");
        assert!(panicked.is_empty());
        assert_eq!(finished.len(), 12);
        let first_six: Vec<usize> = finished[..6].iter().map(|u| u.run).collect();
        assert_eq!(first_six, [1; 6], "run 1 finished first: {finished:?}");
        let g = gauge.lock().unwrap();
        assert!(g.max <= 3, "the global limit held: {}", g.max);
        assert_eq!(
            g.max_per_pool[0], 1,
            "run 0's pool never ran more than its 1"
        );
        // Each run's own units start in plan order.
        let s = started.lock().unwrap();
        for run in 0..2 {
            let mine: Vec<&Unit> = s.iter().filter(|u| u.run == run).collect();
            let mut sorted = mine.clone();
            sorted.sort_by_key(|u| (u.trial, u.task));
            assert_eq!(mine, sorted);
        }
    }

    #[tokio::test]
    async fn without_pool_limits_units_start_in_plan_order() {
        let started: Arc<Mutex<Vec<Unit>>> = Arc::default();
        let st = started.clone();
        let plan = units(3, 2, 2);
        dispatch(
            plan.clone(),
            |_| None,
            &Slots {
                jobs: 1,
                pools: vec![],
            },
            &CancellationToken::new(),
            move |u| {
                let st = st.clone();
                async move {
                    st.lock().unwrap().push(u);
                }
            },
            |_, ()| {},
        )
        .await;
        assert_eq!(*started.lock().unwrap(), plan);
    }

    #[tokio::test]
    async fn a_cancelled_dispatch_starts_nothing_more_and_reports_panics() {
        let cancel = CancellationToken::new();
        let c = cancel.clone();
        let mut done = Vec::new();
        let panicked = dispatch(
            units(1, 4, 1),
            |_| None,
            &Slots {
                jobs: 1,
                pools: vec![],
            },
            &cancel,
            move |u| {
                let c = c.clone();
                async move {
                    if u.task == 1 {
                        c.cancel();
                        panic!("a bug in unit 1");
                    }
                }
            },
            |u, ()| done.push(u.task),
        )
        .await;
        assert_eq!(done, [0]);
        assert_eq!(
            panicked,
            [Panicked(Unit {
                run: 0,
                task: 1,
                trial: 0
            })]
        );
    }
}
