//! The engines a run spreads its trials over (`--engine`, repeatable), each with a number
//! of slots. A trial takes a [`Lease`] on one engine and keeps it for the whole attempt, so
//! its agent and its verifier run on the same engine (the workspace volume lives there). An
//! engine that stops answering is marked lost: no trial is given to it again, and the trials
//! waiting for a slot go to the others; once every engine is lost, waiting trials get
//! [`NoEngine::AllLost`] and the run stops.

use super::progress::{Progress, Reporter};
use crate::env::sandbox::engine::url::EngineSpec;
use crate::env::sandbox::{SandboxBackend, Swept};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How long an engine has to answer a ping before it counts as lost.
const PING_DEADLINE: Duration = Duration::from_secs(10);
/// How long the end-of-run sweep may take on one engine.
const SWEEP_DEADLINE: Duration = Duration::from_secs(20);

/// One engine of the pool.
pub struct PoolEngine {
    /// Its address as given (`unix:///…`, `tcp://host:port`, `default`): named in progress
    /// lines, records and errors.
    pub name: String,
    pub backend: Arc<dyn SandboxBackend>,
    /// Trials it runs at once (at least 1).
    pub slots: usize,
}

/// The engines of a run and which slots are taken.
pub struct EnginePool {
    engines: Vec<PoolEngine>,
    state: Mutex<State>,
    changed: tokio::sync::Notify,
}

struct State {
    busy: Vec<usize>,
    /// Why each lost engine was given up (None: still in use).
    lost: Vec<Option<String>>,
}

/// Why no engine could be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoEngine {
    #[error("every Docker engine became unreachable ({0})")]
    AllLost(String),
    #[error("interrupted")]
    Cancelled,
}

/// One slot on one engine, given back when dropped.
pub struct Lease {
    pool: Arc<EnginePool>,
    index: usize,
}

impl Lease {
    pub fn backend(&self) -> &Arc<dyn SandboxBackend> {
        &self.pool.engines[self.index].backend
    }

    pub fn name(&self) -> &str {
        &self.pool.engines[self.index].name
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut st = self.pool.lock();
        st.busy[self.index] = st.busy[self.index].saturating_sub(1);
        drop(st);
        self.pool.changed.notify_waiters();
    }
}

impl EnginePool {
    /// A pool of `engines` (at least one, each with at least one slot).
    pub fn new(engines: Vec<PoolEngine>) -> Arc<EnginePool> {
        assert!(!engines.is_empty(), "a pool needs an engine");
        let n = engines.len();
        Arc::new(EnginePool {
            engines: engines
                .into_iter()
                .map(|e| PoolEngine {
                    slots: e.slots.max(1),
                    ..e
                })
                .collect(),
            state: Mutex::new(State {
                busy: vec![0; n],
                lost: vec![None; n],
            }),
            changed: tokio::sync::Notify::new(),
        })
    }

    /// One engine with `slots` slots: a run without `--engine`.
    pub fn single(backend: Arc<dyn SandboxBackend>, slots: usize) -> Arc<EnginePool> {
        EnginePool::new(vec![PoolEngine {
            name: "default".into(),
            backend,
            slots,
        }])
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn engines(&self) -> &[PoolEngine] {
        &self.engines
    }

    /// Every engine's slots together: how many trials the pool runs at once.
    pub fn capacity(&self) -> usize {
        self.engines.iter().map(|e| e.slots).sum()
    }

    /// Whether trial records and progress name the engine (more than one engine).
    pub fn names_engines(&self) -> bool {
        self.engines.len() > 1
    }

    /// The engines given up so far, with why: `(name, reason)`.
    pub fn lost(&self) -> Vec<(String, String)> {
        let st = self.lock();
        self.engines
            .iter()
            .zip(&st.lost)
            .filter_map(|(e, l)| l.as_ref().map(|r| (e.name.clone(), r.clone())))
            .collect()
    }

    /// `Some(why)` once every engine is lost.
    pub fn all_lost(&self) -> Option<String> {
        let lost = self.lost();
        (lost.len() == self.engines.len()).then(|| {
            lost.iter()
                .map(|(n, r)| format!("{n}: {r}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
    }

    /// The engine with a free slot and the smallest share of its slots taken (the first
    /// such on a tie), so trials spread over the engines in proportion to their slots.
    fn pick(&self) -> Result<Option<usize>, NoEngine> {
        let mut st = self.lock();
        if st.lost.iter().all(Option::is_some) {
            drop(st);
            return Err(NoEngine::AllLost(self.all_lost().unwrap_or_default()));
        }
        let mut best: Option<usize> = None;
        for (i, e) in self.engines.iter().enumerate() {
            if st.lost[i].is_some() || st.busy[i] >= e.slots {
                continue;
            }
            // busy_i / slots_i < busy_b / slots_b, without division.
            let better =
                best.is_none_or(|b| st.busy[i] * self.engines[b].slots < st.busy[b] * e.slots);
            if better {
                best = Some(i);
            }
        }
        if let Some(i) = best {
            st.busy[i] += 1;
        }
        Ok(best)
    }

    /// Waits for a free slot on an engine that is not lost.
    pub async fn acquire(self: &Arc<Self>, cancel: &CancellationToken) -> Result<Lease, NoEngine> {
        loop {
            // Registered before looking, so a release between the look and the wait wakes us.
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(index) = self.pick()? {
                return Ok(Lease {
                    pool: self.clone(),
                    index,
                });
            }
            tokio::select! {
                _ = &mut notified => {}
                _ = cancel.cancelled() => return Err(NoEngine::Cancelled),
            }
        }
    }

    /// After a trial failed on `lease`'s engine: whether the engine still answers. One
    /// that does not is marked lost (once, with a warning); the caller retries elsewhere.
    pub async fn check(&self, lease: &Lease) -> bool {
        let i = lease.index;
        if self.lock().lost[i].is_some() {
            return false;
        }
        let Err(why) = self.engines[i].backend.ping(PING_DEADLINE).await else {
            return true;
        };
        self.mark_lost(i, why.to_string());
        false
    }

    fn mark_lost(&self, i: usize, why: String) {
        let mut st = self.lock();
        if st.lost[i].is_none() {
            tracing::warn!(
                "engine {} is unreachable ({why}); no more trials go to it",
                self.engines[i].name
            );
            eprintln!(
                "engine {} is unreachable ({why}); its trials are retried on the other engines",
                self.engines[i].name
            );
            st.lost[i] = Some(why);
        }
        drop(st);
        self.changed.notify_waiters();
    }

    /// Removes what is labelled `label` on every engine still reachable (a lost engine is
    /// skipped: `nab clean --engine` reaches it once it is back). Returns what was removed.
    pub async fn sweep(&self, label: &str) -> usize {
        let lost = self.lock().lost.clone();
        let mut removed = 0;
        for (e, lost) in self.engines.iter().zip(lost) {
            if lost.is_some() {
                tracing::warn!(
                    "engine {} was lost; `nab clean --engine {}` removes what it still holds",
                    e.name,
                    e.name
                );
                continue;
            }
            match tokio::time::timeout(SWEEP_DEADLINE, e.backend.sweep(label)).await {
                Ok(Ok(Swept {
                    containers,
                    volumes,
                    quotas,
                })) => removed += containers + volumes + quotas,
                Ok(Err(err)) => tracing::warn!("end-of-run sweep on {} failed: {err}", e.name),
                Err(_) => tracing::warn!(
                    "end-of-run sweep on {} timed out; `nab clean --run` removes what is left",
                    e.name
                ),
            }
        }
        removed
    }
}

/// The connected engines of `--engine` (or the default one), each with its slots.
#[derive(Clone)]
pub struct Connected {
    /// `(name, engine, slots, remote)`, in the order given (`remote`: it shares no paths
    /// with this machine, see `EngineSpec::remote`).
    pub engines: Vec<(String, crate::env::sandbox::Engine, usize, bool)>,
}

impl Connected {
    /// Connects every engine of `specs` (an unreachable one is an error naming it: nothing
    /// has run); none: the default engine, with `jobs` slots.
    pub async fn connect(specs: &[EngineSpec], jobs: usize) -> anyhow::Result<Connected> {
        use crate::env::sandbox::engine::url::check_distinct;
        if specs.is_empty() {
            let e = crate::env::sandbox::connect().await?;
            return Ok(Connected {
                engines: vec![("default".into(), e, jobs.max(1), false)],
            });
        }
        check_distinct(specs)?;
        let mut engines = Vec::new();
        for s in specs {
            let e = crate::env::sandbox::connect_to(&s.addr).await?;
            engines.push((
                s.addr.to_string(),
                e,
                s.slots.unwrap_or(jobs.max(1)),
                s.remote,
            ));
        }
        Ok(Connected { engines })
    }

    /// The first engine: where images are built before they are copied to the others.
    pub fn first(&self) -> &crate::env::sandbox::Engine {
        &self.engines[0].1
    }

    /// Copies each of `tags` from the first engine to every other engine that lacks it,
    /// telling `progress`.
    pub async fn spread_images(
        &self,
        tags: &[String],
        progress: &dyn Reporter,
    ) -> anyhow::Result<()> {
        use crate::env::sandbox::engine::{copy_image, image_exists};
        for (name, e, _, _) in &self.engines[1..] {
            for tag in tags {
                if image_exists(e, tag).await? {
                    continue;
                }
                progress.report(Progress::Note(&format!(
                    "copying image {tag} to engine {name} ..."
                )));
                let started = std::time::Instant::now();
                copy_image(self.first(), e, tag)
                    .await
                    .map_err(|err| anyhow::anyhow!("copying {tag} to engine {name}: {err}"))?;
                progress.report(Progress::Note(&format!(
                    "copied image {tag} to engine {name} in {:.1} s",
                    started.elapsed().as_secs_f64()
                )));
            }
        }
        Ok(())
    }

    /// The pool the runner schedules over. A remote engine needs `nab-relay` on this
    /// machine (beside `nab`; see `remote`).
    pub fn pool(&self) -> anyhow::Result<Arc<EnginePool>> {
        use crate::env::sandbox::{DockerBackend, Remote};
        let mut engines = Vec::new();
        for (name, e, slots, remote) in &self.engines {
            let backend = if *remote {
                let relay = crate::trial::model::locate_binary("nab-relay")?;
                DockerBackend::remote(e.clone(), Remote::new(Some(relay)))
            } else {
                DockerBackend::new(e.clone())
            };
            engines.push(PoolEngine {
                name: name.clone(),
                backend: Arc::new(backend),
                slots: *slots,
            });
        }
        Ok(EnginePool::new(engines))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::sandbox::{
        Capabilities, ContainerId, ContainerSpec, ExecOutcome, ExecRequest, Labels, SandboxError,
        VolumeId,
    };
    use async_trait::async_trait;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A backend that only answers pings (or not): the pool never calls the rest.
    #[derive(Default)]
    struct Pinged {
        down: AtomicBool,
    }

    #[async_trait]
    impl SandboxBackend for Pinged {
        fn capabilities(&self) -> Capabilities {
            unreachable!()
        }
        async fn ping(&self, within: Duration) -> Result<(), crate::env::sandbox::PingError> {
            if self.down.load(Ordering::SeqCst) {
                Err(crate::env::sandbox::PingError::NoAnswer {
                    secs: within.as_secs(),
                })
            } else {
                Ok(())
            }
        }
        async fn create_volume(
            &self,
            _: &Labels,
            _: Option<&std::path::Path>,
        ) -> Result<VolumeId, SandboxError> {
            unreachable!()
        }
        async fn create(&self, _: &ContainerSpec) -> Result<ContainerId, SandboxError> {
            unreachable!()
        }
        async fn copy_in(&self, _: &ContainerId, _: &str, _: Vec<u8>) -> Result<(), SandboxError> {
            unreachable!()
        }
        async fn exec(
            &self,
            _: &ContainerId,
            _: &ExecRequest,
            _: &CancellationToken,
        ) -> Result<ExecOutcome, SandboxError> {
            unreachable!()
        }
        async fn spawn_detached(
            &self,
            _: &ContainerId,
            _: &[String],
            _: &[String],
            _: crate::env::sandbox::ExecUser,
        ) -> Result<(), SandboxError> {
            unreachable!()
        }
        async fn attach(
            &self,
            _: &ContainerId,
            _: &[String],
            _: &[String],
        ) -> Result<crate::env::sandbox::AttachedProcess, SandboxError> {
            unreachable!()
        }
        async fn attach_helper(
            &self,
            _: &ContainerId,
            _: &[String],
        ) -> Result<crate::env::sandbox::AttachedProcess, SandboxError> {
            unreachable!()
        }
        async fn copy_out(
            &self,
            _: &ContainerId,
            _: &str,
            _: tokio::sync::mpsc::Sender<bytes::Bytes>,
            _: u64,
        ) -> Result<(), SandboxError> {
            unreachable!()
        }
        async fn kill(&self, _: &ContainerId) -> Result<(), SandboxError> {
            unreachable!()
        }
        async fn kill_sandbox_user(
            &self,
            _: &ContainerId,
            _: &CancellationToken,
        ) -> Result<bool, SandboxError> {
            unreachable!()
        }
        async fn is_running(&self, _: &ContainerId) -> Result<bool, SandboxError> {
            unreachable!()
        }
        async fn destroy(&self, _: &ContainerId) -> Result<(), SandboxError> {
            unreachable!()
        }
        async fn destroy_volume(&self, _: &VolumeId) -> Result<(), SandboxError> {
            unreachable!()
        }
        async fn sweep(&self, _: &str) -> Result<Swept, SandboxError> {
            Ok(Swept::default())
        }
    }

    fn pool(slots: &[usize]) -> (Arc<EnginePool>, Vec<Arc<Pinged>>) {
        let backends: Vec<Arc<Pinged>> = slots.iter().map(|_| Arc::default()).collect();
        let engines = slots
            .iter()
            .zip(&backends)
            .enumerate()
            .map(|(i, (s, b))| PoolEngine {
                name: format!("e{i}"),
                backend: b.clone(),
                slots: *s,
            })
            .collect();
        (EnginePool::new(engines), backends)
    }

    async fn take(p: &Arc<EnginePool>) -> Lease {
        p.acquire(&CancellationToken::new()).await.unwrap()
    }

    #[tokio::test]
    async fn trials_spread_over_engines_in_proportion_to_their_slots() {
        let (p, _) = pool(&[2, 4]);
        assert_eq!(p.capacity(), 6);
        let mut names = Vec::new();
        let mut held = Vec::new();
        for _ in 0..6 {
            let l = take(&p).await;
            names.push(l.name().to_owned());
            held.push(l);
        }
        assert_eq!(names, ["e0", "e1", "e1", "e0", "e1", "e1"]);
        // Full: the next waits until a slot is given back, and gets that engine.
        let waiter = {
            let p = p.clone();
            tokio::spawn(async move { take(&p).await.name().to_owned() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished());
        drop(held.remove(0));
        assert_eq!(waiter.await.unwrap(), "e0");
    }

    #[tokio::test]
    async fn a_lost_engine_gets_no_more_trials_and_its_waiters_go_elsewhere() {
        let (p, b) = pool(&[1, 1]);
        let first = take(&p).await;
        let second = take(&p).await;
        assert_eq!((first.name(), second.name()), ("e0", "e1"));
        assert!(p.check(&second).await, "a live engine is kept");
        let waiter = {
            let p = p.clone();
            tokio::spawn(async move { take(&p).await.name().to_owned() })
        };
        b[1].down.store(true, Ordering::SeqCst);
        assert!(!p.check(&second).await);
        drop(second);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            !waiter.is_finished(),
            "e1 is lost: its free slot is not given"
        );
        drop(first);
        assert_eq!(waiter.await.unwrap(), "e0");
        assert_eq!(
            p.lost(),
            vec![("e1".into(), "no answer to a ping within 10 s".into())]
        );
        assert_eq!(p.all_lost(), None);
    }

    #[tokio::test]
    async fn when_every_engine_is_lost_the_waiters_are_told() {
        let (p, b) = pool(&[1, 1]);
        let l0 = take(&p).await;
        let l1 = take(&p).await;
        let waiter = {
            let p = p.clone();
            tokio::spawn(async move { p.acquire(&CancellationToken::new()).await.map(|_| ()) })
        };
        for (i, l) in [&l0, &l1].into_iter().enumerate() {
            b[i].down.store(true, Ordering::SeqCst);
            assert!(!p.check(l).await);
        }
        let err = waiter.await.unwrap().unwrap_err();
        assert_eq!(
            err,
            NoEngine::AllLost(
                "e0: no answer to a ping within 10 s; e1: no answer to a ping within 10 s".into()
            )
        );
        assert!(
            err.to_string()
                .starts_with("every Docker engine became unreachable")
        );
    }

    #[tokio::test]
    async fn a_waiter_stops_on_cancel() {
        let (p, _) = pool(&[1]);
        let _held = take(&p).await;
        let cancel = CancellationToken::new();
        let waiter = {
            let (p, c) = (p.clone(), cancel.clone());
            tokio::spawn(async move { p.acquire(&c).await.map(|_| ()) })
        };
        cancel.cancel();
        assert_eq!(waiter.await.unwrap().unwrap_err(), NoEngine::Cancelled);
    }
}
