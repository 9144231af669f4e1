//! One trial, end to end: agent container → copy the workspace out → fresh verifier.
//! Every container, volume and disk quota it creates is recorded as it is created and
//! removed on every path out (success, failure, infrastructure error, interruption): before
//! the trial returns, or after it by the run's [`Reaper`] once the verdict is in.
//! What runs at once (the verifier's container beside the agent's, removals beside the
//! verifier) is in the book's trial lifecycle page; each phase's time is in the record.

pub(crate) mod agent;
pub(crate) mod canary;
mod cleanup;
pub mod cost;
pub mod declared;
pub(crate) mod expect;
pub(crate) mod junit;
pub(crate) mod llm;
pub(crate) mod loopback;
pub(crate) mod mcp_host;
pub(crate) mod metrics;
pub mod model;
pub(crate) mod out_copy;
pub(crate) mod own_time;
pub(crate) mod phases;
pub(crate) mod provider_answers;
mod quota_pool;
pub(crate) mod requirements;
pub(crate) mod tamper;
mod verifier;
pub(crate) mod verify;
mod workspace_in;

pub use agent::AgentKind;

use crate::env::sandbox::{
    BindMount, ContainerId, ContainerSpec, DiskQuota, ExecRequest, ExecUser, Labels, Lockdown,
    SandboxBackend, SandboxError, VolumeId, quota,
};
use crate::env::workspace::{self, Picks, Snapshot};
use crate::task::{EXPECTED_CAP, Task, VerifierMode, VerifyStep};
use agent::{AgentPlan, ModelMounts};
use llm::LlmSession;
use mcp_host::McpHost;
use metrics::ModelMetrics;
use model::ModelSetup;
use nab_gateway::ModelClock;
use nab_protocol::{AGENT_LOG_FILE, DIFF_FILE, TRANSCRIPT_FILE};
use nab_protocol::{AgentBehaviour, ModelUsage, TrialOutcome, TrialPhase, TrialStatus};
use nab_protocol::{ErrorKind, FailureReason, SandboxExit};
use phases::PhaseClock;
use requirements::Compaction;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Bytes of agent output kept in agent.log.
pub const AGENT_LOG_CAP: usize = 1024 * 1024;
/// Largest workspace archive read back (it streams; nothing of it lands on disk).
const WORKSPACE_LIMIT: u64 = 1024 * 1024 * 1024;
/// Reading the final workspace and diffing it, off the async threads, must end by then.
const POST_PROCESS_DEADLINE: Duration = Duration::from_secs(120);
/// tmpfs sizes (MiB): /tmp in every container, /nab/verify in the verifier.
const TMP_MB: i64 = 512;
const VERIFY_SCRATCH_MB: i64 = 512;

/// Shared by every trial of a run.
#[derive(Clone)]
pub struct TrialContext {
    pub backend: Arc<dyn SandboxBackend>,
    pub image: String,
    pub run_id: String,
    /// The run's model (`--model`), for agents that use the gateway.
    pub model: Option<Arc<ModelSetup>>,
    /// Where a trial that reached its record hands its removals, to be done while the run
    /// goes on; without one, a trial removes what it made before it returns.
    pub reaper: Option<Reaper>,
    /// Disk quotas made ahead for the run's trials (used with a local engine); without
    /// one, each quota is made when its trial needs it.
    pub quotas: Option<Arc<QuotaPool>>,
}

#[derive(Debug, Clone)]
pub struct TrialJob {
    pub task: Arc<Task>,
    pub agent: AgentKind,
    pub trial: u32,
    /// `<out>/trials/<task>/<name>/`: agent.log, verify.log, diff.patch.
    pub dir: PathBuf,
    /// Each test-runner step (one that declares `junit`) stops at its first failing test
    /// that is not a canary: pytest is given `--maxfail` one above the planted canaries.
    /// A trial that fails still fails, and one that passes runs every test, so only a
    /// verdict of `failed` comes sooner. Never for a trial that is scored: its test counts
    /// would be partial.
    pub stop_at_first_failure: bool,
}

/// A trial that reached its verdict: the parts of its [`nab_protocol::TrialRecord`] it
/// produced, for the runner to assemble with its own (identity, attempts, judges).
#[derive(Debug, Clone, PartialEq)]
pub struct TrialParts {
    /// The verdict, the tests, the timings and the tamper flags; the runner adds its
    /// attempts. A failure is anything the agent or its code can cause, never a
    /// [`TrialError`].
    pub outcome: TrialOutcome,
    /// The model's spec, for an agent that used the gateway.
    pub model: Option<String>,
    /// For an agent that used the gateway: calls and tokens from its transcript, priced.
    pub usage: ModelUsage,
    /// Steps and tools from the agent's events (with a model), and the requirements the
    /// trial broke (see `requirements`).
    pub behaviour: AgentBehaviour,
    /// What the provider answered the trial's calls, for the runner's [`crate::run::ProviderGuard`].
    pub provider: provider_answers::ProviderAnswers,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrialError {
    #[error("interrupted")]
    Cancelled,
    #[error(transparent)]
    Sandbox(SandboxError),
    #[error("the sandbox backend cannot run this trial: it lacks {0}")]
    Unsupported(&'static str),
    #[error(transparent)]
    Plan(#[from] agent::PlanError),
    #[error(transparent)]
    Llm(#[from] llm::LlmError),
    #[error(transparent)]
    McpHost(#[from] mcp_host::McpHostError),
    #[error(transparent)]
    Loopback(#[from] loopback::LoopbackError),
    #[error("trial files in {dir}: {source}")]
    Files {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// The agent stopped because the model provider failed after the gateway's retries
    /// (never the model's answer, never the agent's failure).
    #[error("{0}")]
    Provider(String),
    /// The provider refused the run's configuration (a 401/403 for the key, a 404 for the
    /// model or base URL): not the model's answer and not the agent's failure. Never
    /// retried; the runner stops the run on it ([`crate::run::ProviderGuard`]).
    #[error("{0}")]
    ProviderConfig(String),
    /// A replayed cassette had no answer for the agent's request: the agent's requests
    /// changed. Infrastructure (the recording is stale), never retried (it would miss again).
    #[error("{0}")]
    ReplayMiss(String),
    /// The task has an `environment:` but its image was not built before the run
    /// (the CLI builds it; a library caller must call `image::ensure_suite_images`).
    #[error(
        "task {0} has an `environment:` but no image was built for it; build it first (`nab image build --tasks <dir>`)"
    )]
    NoTaskImage(String),
}

impl TrialError {
    /// Whether another attempt could end differently. A replay miss cannot: the same
    /// agent sends the same request to the same cassette.
    pub fn is_retryable(&self) -> bool {
        !matches!(
            self,
            TrialError::ReplayMiss(_) | TrialError::NoTaskImage(_) | TrialError::ProviderConfig(_)
        )
    }

    /// The kind of infrastructure fault, for the record's `error_kind`.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        match self {
            TrialError::Cancelled => None,
            TrialError::Sandbox(_) | TrialError::Unsupported(_) | TrialError::Loopback(_) => {
                Some(ErrorKind::Sandbox)
            }
            TrialError::Provider(_) | TrialError::ProviderConfig(_) => Some(ErrorKind::Provider),
            TrialError::ReplayMiss(_) => Some(ErrorKind::ReplayMiss),
            TrialError::Plan(_)
            | TrialError::Llm(_)
            | TrialError::McpHost(_)
            | TrialError::Files { .. }
            | TrialError::NoTaskImage(_) => Some(ErrorKind::Harness),
        }
    }
}

impl From<SandboxError> for TrialError {
    fn from(e: SandboxError) -> Self {
        match e {
            SandboxError::Cancelled => TrialError::Cancelled,
            other => TrialError::Sandbox(other),
        }
    }
}

use cleanup::Created;
pub use cleanup::Reaper;
pub use quota_pool::QuotaPool;

pub async fn run_trial(
    ctx: &TrialContext,
    job: &TrialJob,
    cancel: &CancellationToken,
) -> Result<TrialParts, TrialError> {
    let created = Mutex::new(Created::default());
    let clock = PhaseClock::start();
    // Cancellation ends the trial wherever it is, not only inside an exec: whatever the
    // agent left behind (a FIFO, a huge workspace) cannot keep a step from being dropped.
    // Blocking work already handed to a thread has its own deadline.
    let result = tokio::select! {
        r = run_inner(ctx, job, cancel, &created, &clock) => r,
        _ = cancel.cancelled() => Err(TrialError::Cancelled),
    };
    let created = created.into_inner().unwrap_or_else(|p| p.into_inner());
    match (&ctx.reaper, &result) {
        // The verdict is in and nothing of the trial runs any more (every container
        // stopped or removed): the rest of the removal needs no waiting for.
        (Some(reaper), Ok(_)) => reaper.defer(ctx.backend.clone(), created),
        _ => cleanup::remove_all(ctx.backend.as_ref(), created).await,
    }
    clock.lap(TrialPhase::Cleanup);
    result.map(|mut parts| {
        parts.outcome.phase_ms = clock.times();
        parts
    })
}

/// Creates a `mb` MiB disk quota for `labels` where the engine binds it (`image`: the
/// trial's, which the engine has) and records it for removal; `None` when quotas are off
/// (`NAB_DISK_QUOTA=off`).
async fn make_quota(
    scope: &Scope<'_>,
    role: &str,
    mb: i64,
    image: &str,
) -> Result<Option<DiskQuota>, TrialError> {
    if !quota::enabled() {
        return Ok(None);
    }
    let mb = u64::try_from(mb).unwrap_or(0);
    let labels = scope.labels(role);
    let owner = crate::env::sandbox::SANDBOX_UID;
    // A local engine binds quotas made on this machine, which the run makes ahead.
    let pool = (scope.ctx.backend.capabilities().live_binds)
        .then_some(scope.ctx.quotas.as_ref())
        .flatten();
    let q = match pool {
        Some(pool) => pool.take(&labels, mb, owner).await?,
        None => {
            scope
                .ctx
                .backend
                .create_quota(&labels, mb, owner, image)
                .await?
        }
    };
    scope.created().quotas.push(q.clone());
    scope.clock.lap(TrialPhase::Quota);
    Ok(Some(q))
}

/// Which of the trial's quotas the agent filled, as notes for agent.log; and whether the
/// first (the workspace's) is full.
async fn full_quotas(
    backend: &dyn SandboxBackend,
    quotas: &[(&str, &Option<DiskQuota>)],
    mb: i64,
) -> (Vec<String>, bool) {
    let mut notes = Vec::new();
    let mut first_full = false;
    for (i, (what, q)) in quotas.iter().enumerate() {
        let Some(q) = q else { continue };
        match backend.quota_full(q).await {
            Ok(true) => {
                first_full |= i == 0;
                notes.push(format!(
                    "[nab: {what} filled its disk quota of {mb} MiB (limits.disk_mb); writes past it failed]\n"
                ));
            }
            Ok(false) => {}
            Err(e) => tracing::warn!("disk quota {}: {e}", q.describe()),
        }
    }
    (notes, first_full)
}

use cleanup::CLEANUP_DEADLINE;

fn files_err(dir: &Path) -> impl FnOnce(std::io::Error) -> TrialError + '_ {
    move |source| TrialError::Files {
        dir: dir.to_owned(),
        source,
    }
}

/// Adds harness notes to the trial's agent.log.
/// At most `cap + 1` bytes of `path` (enough to tell that it is longer than `cap`); a
/// missing file reads as empty (the MCP host could not open it).
fn read_capped(path: &Path, cap: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(cap as u64 + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn append_log(dir: &Path, notes: &str) -> Result<(), TrialError> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(AGENT_LOG_FILE))
        .and_then(|mut f| f.write_all(notes.as_bytes()))
        .map_err(files_err(dir))
}

fn lockdown(task: &Task) -> Lockdown {
    Lockdown {
        cpus: task.spec.limits.cpus,
        memory_mb: task.spec.limits.memory_mb,
        pids: task.spec.limits.pids,
        tmp_mb: TMP_MB,
    }
}

/// What every phase of one trial shares.
struct Scope<'a> {
    ctx: &'a TrialContext,
    job: &'a TrialJob,
    cancel: &'a CancellationToken,
    created: &'a Mutex<Created>,
    /// Where the trial's time goes, phase by phase.
    clock: &'a PhaseClock,
}

impl Scope<'_> {
    fn labels(&self, role: &str) -> Labels {
        Labels {
            run: self.ctx.run_id.clone(),
            task: self.job.task.id().to_owned(),
            trial: self.job.trial.to_string(),
            role: role.to_owned(),
        }
    }

    fn created(&self) -> std::sync::MutexGuard<'_, Created> {
        self.created.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The trial's image, and the task's workspace as the trial starts: its snapshot (to diff
/// against) and its archive.
struct Prepared {
    image: String,
    original: Snapshot,
    tar: Vec<u8>,
}

/// The agent's container after it stopped, with what outlives it until the workspace is read.
struct AgentRun<'a> {
    container: ContainerId,
    ws_quota: Option<DiskQuota>,
    out_quota: Option<DiskQuota>,
    session: Option<(&'a Arc<ModelSetup>, LlmSession)>,
    /// The MCP servers' host, stopped; its socket folder is a bind source of the agent's
    /// container, so it lives until the workspace was copied out of it.
    mcp: Option<McpHost>,
    exit_reason: SandboxExit,
    agent_exit_code: Option<i64>,
    agent_s: f64,
    model_s: Option<f64>,
}

/// What the agent left: its verdict so far, and what the verifier needs.
struct Collected {
    failure: Option<FailureReason>,
    violations: Vec<String>,
    compaction: Option<nab_protocol::CompactionCheck>,
    tamper_flags: Vec<String>,
    picks: Picks,
    /// /workspace was made private to its owner from the host (see `close_on_host`).
    workspace_closed: bool,
    metrics: Option<ModelMetrics>,
    exit_reason: SandboxExit,
    agent_exit_code: Option<i64>,
    agent_s: f64,
    model_s: Option<f64>,
}

/// The verifier's findings.
struct Verified {
    failure: Option<FailureReason>,
    tests_passed: Option<u32>,
    tests_total: Option<u32>,
    verify_s: f64,
}

impl Collected {
    /// The trial's parts of its record, once the verifier ran (or was not needed).
    /// `verdict_reachable`: the task's hidden tests ran beside the code under test.
    fn parts(self, verified: Option<Verified>, verdict_reachable: bool) -> TrialParts {
        let verifier_passed = verified.as_ref().map(|v| v.failure.is_none());
        let (v_failure, tests_passed, tests_total, verify_s) = match verified {
            Some(v) => (v.failure, v.tests_passed, v.tests_total, v.verify_s),
            None => (None, None, None, 0.0),
        };
        // The agent's own rule-breaking outranks what the tests said.
        let failure = self.failure.or(v_failure);
        let outcome = TrialOutcome {
            status: match failure {
                None => TrialStatus::Passed,
                Some(_) => TrialStatus::Failed,
            },
            reward: if failure.is_none() { 1.0 } else { 0.0 },
            tests_passed,
            tests_total,
            verifier_passed,
            compaction: self.compaction,
            exit_reason: Some(self.exit_reason),
            agent_exit_code: self.agent_exit_code,
            agent_s: self.agent_s,
            model_s: self.model_s,
            verify_s,
            failure_reason: failure,
            tamper_flags: self.tamper_flags,
            verdict_reachable,
            ..TrialOutcome::default()
        };
        let (model, usage, mut behaviour, provider) = match self.metrics {
            Some(m) => (Some(m.model), m.usage, m.behaviour, m.provider),
            None => Default::default(),
        };
        behaviour.violations = self.violations;
        TrialParts {
            outcome,
            model,
            usage,
            behaviour,
            provider,
        }
    }
}

async fn run_inner(
    ctx: &TrialContext,
    job: &TrialJob,
    cancel: &CancellationToken,
    created: &Mutex<Created>,
    clock: &PhaseClock,
) -> Result<TrialParts, TrialError> {
    let scope = Scope {
        ctx,
        job,
        cancel,
        created,
        clock,
    };
    let reachable = job.task.spec.verifier == VerifierMode::Shared;
    let prepared = prepare(&scope).await?;
    let (agent, verifier) = agent_phase(&scope, &prepared.image, prepared.tar).await?;
    let agent_c = agent.container.clone();
    let host_closes = verifier::closes_on_host(&job.task, agent.ws_quota.as_ref());
    // The agent has stopped: the verifier's /nab goes in while its workspace is read.
    let (collected, staged) = futures::future::join(
        collect(&scope, agent, prepared.original),
        verifier::stage(&scope, &verifier, host_closes),
    )
    .await;
    let collected = collected?;
    scope.clock.beside(TrialPhase::VerifyStage);
    scope.clock.lap(TrialPhase::TestsIn);
    // The agent's container is done with: removed while the verifier works.
    let removed = remove_early(&scope, agent_c);
    if matches!(
        collected.failure,
        Some(FailureReason::WorkspaceTooLarge | FailureReason::DiskQuota)
    ) {
        // The verifier would have to take that workspace in: the verdict is already in.
        removed.await;
        return Ok(collected.parts(None, reachable));
    }
    let verified = async {
        let staged = staged?;
        verifier::verify_phase(&scope, &verifier, &collected, staged, host_closes).await
    };
    let (verified, ()) = futures::future::join(verified, removed).await;
    Ok(collected.parts(Some(verified?), reachable))
}

/// Removes container `c` now, not at the trial's end; left for the end (which tries again)
/// when the engine refuses or takes too long.
async fn remove_early(scope: &Scope<'_>, c: ContainerId) {
    match tokio::time::timeout(CLEANUP_DEADLINE, scope.ctx.backend.destroy(&c)).await {
        Ok(Ok(())) => scope.created().containers.retain(|x| *x != c),
        Ok(Err(e)) => tracing::warn!("could not remove container {}: {e}", c.0),
        Err(_) => tracing::warn!("removing container {} timed out", c.0),
    }
}

/// Checks the backend can run the trial, creates its folder, and packs the task's workspace.
async fn prepare(scope: &Scope<'_>) -> Result<Prepared, TrialError> {
    let dir = &scope.job.dir;
    // This flow hands one workspace volume from the agent to a fresh verifier, mounts
    // task folders from the host, and copies files as archives.
    let caps = scope.ctx.backend.capabilities();
    for (ok, what) in [
        (caps.shared_volumes, "volumes shared between containers"),
        (caps.bind_mounts, "host bind mounts"),
        (caps.archive_copy, "archive copy"),
    ] {
        if !ok {
            return Err(TrialError::Unsupported(what));
        }
    }
    // A task with its own environment runs its own image, never the base in its place.
    let task = &scope.job.task;
    let image = match (&task.image, &task.spec.environment) {
        (Some(i), _) => i.clone(),
        (None, Some(_)) => return Err(TrialError::NoTaskImage(task.id().to_owned())),
        (None, None) => scope.ctx.image.clone(),
    };
    std::fs::create_dir_all(dir).map_err(files_err(dir))?;
    let ws_dir = task.workspace_dir();
    let (original, tar) = tokio::task::spawn_blocking(move || {
        Ok::<_, std::io::Error>((Snapshot::from_dir(&ws_dir)?, workspace::pack_dir(&ws_dir)?))
    })
    .await
    .map_err(|e| files_err(dir)(std::io::Error::other(e)))?
    .map_err(files_err(dir))?;
    scope.clock.lap(TrialPhase::Prepare);
    Ok(Prepared {
        image,
        original,
        tar,
    })
}

/// Runs the agent in its container on a fresh workspace volume, writes agent.log, and
/// stops everything the agent started. The verifier's container is made meanwhile, on the
/// same volume, and returned too: it runs nothing but its keeper until the agent has
/// stopped and its workspace was read, and nothing of it is in the agent's reach (its own
/// processes, its own /nab; the hidden tests go in only after the agent stopped).
async fn agent_phase<'a>(
    scope: &Scope<'a>,
    image: &str,
    tar: Vec<u8>,
) -> Result<(AgentRun<'a>, ContainerId), TrialError> {
    // The workspace is a disk quota of its own (the verifier gets the same file system),
    // and so is /nab/out: writes past them fail in the container, not on the host.
    let disk_mb = scope.job.task.spec.limits.disk_mb;
    let (ws_quota, volume, tar) = workspace_volume(scope, disk_mb, image, tar).await?;
    // Both are awaited to the end: a container being made is never dropped halfway (it
    // would be made without being recorded for removal).
    let (agent, verifier) = futures::future::join(
        run_agent_box(scope, image, tar, ws_quota, volume.clone()),
        verifier::make_verifier(scope, image, &volume),
    )
    .await;
    let (agent, verifier) = (agent?, verifier?);
    scope.clock.lap(TrialPhase::VerifierStart);
    Ok((agent, verifier))
}

/// The agent's side of [`agent_phase`]: its gateway, MCP servers and container, the run,
/// and everything it started stopped.
async fn run_agent_box<'a>(
    scope: &Scope<'a>,
    image: &str,
    tar: Option<Vec<u8>>,
    ws_quota: Option<DiskQuota>,
    volume: VolumeId,
) -> Result<AgentRun<'a>, TrialError> {
    let (ctx, job, task, dir) = (scope.ctx, scope.job, &scope.job.task, &scope.job.dir);
    let disk_mb = task.spec.limits.disk_mb;
    // A gateway for agents that talk to a model; it lives until the agent has stopped.
    let (out_quota, mut session) = start_session(scope, disk_mb, image).await?;
    let out_on_engine = out_quota.as_ref().filter(|q| q.on_engine());
    let out_on_engine = out_on_engine.map(|q| q.mount_path());
    let mounts = session.as_ref().map(|(m, s)| ModelMounts {
        socket: s.socket(),
        out_dir: out_on_engine.as_deref().unwrap_or(s.out_dir()),
        out_on_engine: out_on_engine.is_some(),
        nab_agent: m.nab_agent.as_deref(),
        agent_model: &m.agent_model,
        relay: m.relay.as_deref(),
    });
    let mcp = start_mcp_servers(scope, image).await?;
    scope.clock.lap(TrialPhase::AgentStart);
    let plan = job.agent.plan(
        task,
        mounts.as_ref(),
        mcp.as_ref().map(|(h, _)| h.dir()).as_deref(),
    )?;
    let (container, env) = create_agent_container(scope, image, &volume, &plan, tar).await?;
    let loopback = match plan.loopback {
        true => Some(loopback::start(ctx.backend.as_ref(), &container, agent::SOCKET_PATH).await?),
        false => None,
    };

    // An agent with a model is limited in its own time: the gateway's model time is not
    // counted, up to the task's wall-clock cap (see `own_time_limit`).
    let clock = session.as_ref().map(|(_, s)| s.model_clock());
    let agent_started = Instant::now();
    let (exit_reason, agent_exit_code) = match &plan.argv {
        Some(argv) => {
            let clock = clock.as_deref();
            run_agent(scope, &container, argv, env, clock, agent_started).await?
        }
        None => {
            std::fs::write(
                dir.join(AGENT_LOG_FILE),
                "[nab: null agent: nothing was run]\n",
            )
            .map_err(files_err(dir))?;
            (SandboxExit::Exited, None)
        }
    };
    let agent_s = agent_started.elapsed().as_secs_f64();
    scope.clock.lap(TrialPhase::Agent);
    let model_s = clock.map(|c| c.total().as_secs_f64().min(agent_s));
    // Stop everything the agent started before reading its workspace.
    ctx.backend.kill(&container).await?;
    drop(loopback);
    let remote = !ctx.backend.capabilities().live_binds;
    if let Some((_, s)) = session.as_mut().filter(|_| remote) {
        let refused = out_copy::copy_back_events(ctx.backend.as_ref(), &container, s.out_dir());
        s.events_refused = refused.await;
    }
    let mcp = match mcp {
        Some((host, sidecar)) => Some(stop_mcp_servers(scope, host, &sidecar).await?),
        None => None,
    };
    scope.clock.lap(TrialPhase::AgentStop);
    Ok(AgentRun {
        container,
        ws_quota,
        out_quota,
        session,
        mcp,
        exit_reason,
        agent_exit_code,
        agent_s,
        model_s,
    })
}

/// The trial's gateway, for agents that talk to a model, with /nab/out on a disk quota of
/// its own. A quota on a remote engine's machine is bound there; the session's folder here
/// then receives events.jsonl when it is copied back.
async fn start_session<'a>(
    scope: &Scope<'a>,
    disk_mb: i64,
    image: &str,
) -> Result<(Option<DiskQuota>, Option<(&'a Arc<ModelSetup>, LlmSession)>), TrialError> {
    let (ctx, job) = (scope.ctx, scope.job);
    match &ctx.model {
        Some(m) if job.agent.uses_model(true) => {
            let out_quota = make_quota(scope, "out", disk_mb, image).await?;
            let here = out_quota.as_ref().filter(|q| !q.on_engine());
            let out = here.map(|q| q.mount_path());
            let session = LlmSession::start(m, job, out.as_deref()).await?;
            Ok((out_quota, Some((m, session))))
        }
        _ => Ok((None, None)),
    }
}

/// The workspace volume, on a disk quota of its own when quotas are on. A quota on this
/// machine is filled with the task's workspace (`tar`) from the host, while the volume is
/// made (see `workspace_in`); otherwise `tar` is returned, for the agent's container.
async fn workspace_volume(
    scope: &Scope<'_>,
    disk_mb: i64,
    image: &str,
    tar: Vec<u8>,
) -> Result<(Option<DiskQuota>, VolumeId, Option<Vec<u8>>), TrialError> {
    let ws_quota = make_quota(scope, "workspace", disk_mb, image).await?;
    let (fill, tar) = match &ws_quota {
        Some(DiskQuota::Host(q)) => (Some(workspace_in::unpack_on_host(q.path(), tar)), None),
        _ => (None, Some(tar)),
    };
    let volume = async {
        let v = scope
            .ctx
            .backend
            .create_volume(
                &scope.labels("workspace"),
                ws_quota.as_ref().map(|q| q.mount_path()).as_deref(),
            )
            .await?;
        scope.created().volumes.push(v.clone());
        Ok::<_, TrialError>(v)
    };
    let filled = async {
        match fill {
            Some(f) => f.await.map_err(files_err(&scope.job.task.workspace_dir())),
            None => Ok(()),
        }
    };
    let (volume, filled) = tokio::join!(volume, filled);
    let volume = volume?;
    filled?;
    if tar.is_none() {
        scope.clock.lap(TrialPhase::WorkspaceIn);
    }
    Ok((ws_quota, volume, tar))
}

/// Stops the MCP servers' host and kills their sidecar; the host is returned, since its
/// socket folder must outlive the agent's container.
async fn stop_mcp_servers(
    scope: &Scope<'_>,
    mut host: McpHost,
    sidecar: &ContainerId,
) -> Result<McpHost, TrialError> {
    host.stop().await;
    scope.ctx.backend.kill(sidecar).await?;
    Ok(host)
}

/// The agent's container, locked down, on the workspace volume, with the task's workspace
/// copied in: on the task's `image`, or a declared agent's image on top of it. Returns it
/// and the environment the agent's command runs with.
async fn create_agent_container(
    scope: &Scope<'_>,
    image: &str,
    volume: &VolumeId,
    plan: &AgentPlan,
    tar: Option<Vec<u8>>,
) -> Result<(ContainerId, Vec<String>), TrialError> {
    let (ctx, task) = (scope.ctx, &scope.job.task);
    // A declared agent runs in its own image on top of the task's (`image`); the MCP
    // servers and the verifier keep the task's image.
    let image = match &scope.job.agent {
        AgentKind::Declared(a) => declared::image_for(a, image),
        _ => image.to_owned(),
    };
    // Python writes no byte code into the workspace: byte code there is a tamper flag, and
    // an honest agent that runs the visible tests must not raise one.
    let mut env = vec![
        "HOME=/tmp".to_owned(),
        "LANG=C.UTF-8".to_owned(),
        "PYTHONDONTWRITEBYTECODE=1".to_owned(),
    ];
    env.extend(plan.env.iter().cloned());
    let agent_spec = ContainerSpec {
        image,
        labels: scope.labels("agent"),
        limits: lockdown(task),
        workspace: Some(volume.clone()),
        binds: plan.binds.clone(),
        scratch_volumes: vec![],
        tmpfs: vec![],
        env: env.clone(),
    };
    let container = ctx.backend.create(&agent_spec).await?;
    scope.created().containers.push(container.clone());
    scope.clock.lap(TrialPhase::AgentStart);
    if let Some(tar) = tar {
        ctx.backend.copy_in(&container, "/workspace", tar).await?;
        scope.clock.lap(TrialPhase::WorkspaceIn);
    }
    Ok((container, env))
}

/// Runs the agent's command until it exits or its time is up (its own time when it has a
/// model `clock`, else the wall clock), and writes agent.log with why it was stopped.
/// Returns how it ended and its exit code.
async fn run_agent(
    scope: &Scope<'_>,
    container: &ContainerId,
    argv: &[String],
    env: Vec<String>,
    clock: Option<&ModelClock>,
    agent_started: Instant,
) -> Result<(SandboxExit, Option<i64>), TrialError> {
    let (ctx, task, dir) = (scope.ctx, &scope.job.task, &scope.job.dir);
    let own_limit = Duration::from_secs_f64(task.spec.timeouts.agent_s);
    let wall = match clock {
        Some(_) => Duration::from_secs_f64(task.spec.timeouts.agent_wall_cap()),
        None => own_limit,
    };
    let req = ExecRequest {
        argv: argv.to_vec(),
        user: ExecUser::Sandbox,
        env,
        workdir: "/workspace".into(),
        timeout: wall,
        output_cap: AGENT_LOG_CAP,
    };
    let exec = ctx.backend.exec(container, &req, scope.cancel);
    let (out, own_out) = match clock {
        Some(c) => {
            own_time::limit(exec, c, agent_started, own_limit, || {
                ctx.backend.kill(container)
            })
            .await?
        }
        None => (exec.await?, false),
    };
    let mut log = out.output.to_text();
    let reason = if own_out {
        log.push_str(&format!(
            "[nab: agent killed at its {:.0} s limit of its own time ({:.1} s waiting for the model not counted)]\n",
            task.spec.timeouts.agent_s,
            clock.map_or(0.0, |c| c.total().as_secs_f64())
        ));
        SandboxExit::Timeout
    } else if out.timed_out {
        log.push_str(&match clock {
            Some(_) => format!(
                "[nab: agent killed at the {:.0} s wall-clock cap of its phase (timeouts.agent_wall_s), model time included]\n",
                wall.as_secs_f64()
            ),
            None => format!(
                "[nab: agent killed at its {:.0} s deadline]\n",
                task.spec.timeouts.agent_s
            ),
        });
        SandboxExit::Timeout
    } else if out.exit_code == Some(137) {
        SandboxExit::Killed
    } else {
        SandboxExit::Exited
    };
    std::fs::write(dir.join(AGENT_LOG_FILE), log).map_err(files_err(dir))?;
    Ok((reason, out.exit_code))
}

/// The task's MCP servers (`mcp_servers:`): their sidecar container, which alone holds
/// the task's `mcp/` folder, and the host's sockets the agent reaches them by.
async fn start_mcp_servers(
    scope: &Scope<'_>,
    image: &str,
) -> Result<Option<(McpHost, ContainerId)>, TrialError> {
    let (ctx, task, dir) = (scope.ctx, &scope.job.task, &scope.job.dir);
    if task.spec.mcp_servers.is_empty() {
        return Ok(None);
    }
    let spec = ContainerSpec {
        image: image.to_owned(),
        labels: scope.labels("mcp"),
        limits: lockdown(task),
        workspace: None,
        binds: vec![BindMount {
            host: task.mcp_dir(),
            container: "/nab/mcp".into(),
            read_only: true,
            on_engine: false,
        }],
        scratch_volumes: vec![],
        tmpfs: vec![],
        env: vec!["HOME=/tmp".to_owned(), "LANG=C.UTF-8".to_owned()],
    };
    let sidecar = ctx.backend.create(&spec).await?;
    scope.created().containers.push(sidecar.clone());
    let host = McpHost::start(
        ctx.backend.clone(),
        sidecar.clone(),
        &task.spec.mcp_servers,
        dir,
    )?;
    Ok(Some((host, sidecar)))
}

/// Takes in what the agent left: the quotas it filled, its workspace (diff.patch, tamper
/// flags, expected files), then the gateway's transcript and events (metrics).
async fn collect(
    scope: &Scope<'_>,
    agent: AgentRun<'_>,
    original: Snapshot,
) -> Result<Collected, TrialError> {
    let (task, dir) = (&scope.job.task, &scope.job.dir);
    let disk_mb = task.spec.limits.disk_mb;
    let (full, ws_full) = full_quotas(
        scope.ctx.backend.as_ref(),
        &[
            ("the workspace", &agent.ws_quota),
            ("/nab/out", &agent.out_quota),
        ],
        disk_mb,
    )
    .await;
    if !full.is_empty() {
        append_log(dir, &full.concat())?;
    }
    let (mut failure, tamper_flags, picks) = read_workspace(
        scope,
        &agent.container,
        agent.ws_quota.as_ref(),
        original,
        ws_full,
        !full.is_empty(),
    )
    .await?;
    // Docker needed every bind source of the agent's container while it copied the
    // workspace out; the container itself is removed while the verifier works.
    drop(agent.mcp);
    let workspace_closed = close_on_host(task, agent.ws_quota.as_ref()).await;
    // The gateway and /nab/out outlived the copy for the same reason.
    let metrics = match agent.session {
        Some((m, s)) => Some(model_metrics(scope, m, s, agent.exit_reason, &mut failure).await?),
        None => None,
    };
    if let Some(m) = &metrics {
        not_the_agents_doing(m)?;
    }
    // A requirement the records do not show (a tool call no server served, a compaction
    // no session shows) fails the trial, whatever the tests say.
    let served = if task.spec.required_tool_calls.is_empty() {
        Vec::new()
    } else {
        requirements::read_served(dir).map_err(|e| TrialError::Files {
            dir: dir.clone(),
            source: std::io::Error::other(e.to_string()),
        })?
    };
    let compaction = judged_compaction(scope, metrics.as_ref())?;
    let compaction_check = task
        .spec
        .agent
        .as_ref()
        .is_some_and(|a| a.requires_compaction.is_some())
        .then(|| compaction.check());
    let unmet = requirements::check(task, &served, compaction);
    if let Some(f) = unmet.failure {
        failure.get_or_insert(f);
    }
    scope.clock.lap(TrialPhase::Metrics);
    Ok(Collected {
        failure,
        violations: unmet.violations,
        compaction: compaction_check,
        tamper_flags,
        picks,
        workspace_closed,
        metrics,
        exit_reason: agent.exit_reason,
        agent_exit_code: agent.agent_exit_code,
        agent_s: agent.agent_s,
        model_s: agent.model_s,
    })
}

/// Makes the workspace's root private to its owner (mode 0700) from the host, when it is a
/// disk quota on this machine (the file system's root, which the agent cannot replace) and
/// the verifier keeps its users apart; the verifier then needs no command for it (see
/// `verify::close_workspace`). The agent's processes are gone: nothing can undo it. `false`
/// when it was not done here.
async fn close_on_host(task: &Task, quota: Option<&DiskQuota>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if !verifier::closes_on_host(task, quota) {
        return false;
    }
    let Some(DiskQuota::Host(q)) = quota else {
        return false;
    };
    let root = q.path();
    let closed = tokio::task::spawn_blocking(move || {
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o700))
    })
    .await;
    matches!(closed, Ok(Ok(())))
}

/// The trial's end is not the agent's to be scored on when the model's side failed it: a
/// cassette without an answer, a refused configuration, a provider failure.
fn not_the_agents_doing(metrics: &ModelMetrics) -> Result<(), TrialError> {
    // The cassette has no answer for a request the agent made: the agent stopped on a
    // stale recording, and scoring its half-done workspace would report the recording's
    // age as a regression.
    if let Some(why) = metrics.replay_miss.clone() {
        return Err(TrialError::ReplayMiss(why));
    }
    // The provider refused the run's key or model: nothing the agent did is being scored.
    if let Some(why) = metrics.provider.config.clone() {
        return Err(TrialError::ProviderConfig(why));
    }
    // The provider failed and the agent stopped on it: verifying the half-done workspace
    // would score the provider, not the agent.
    if let Some(why) = metrics.provider_failure.clone() {
        return Err(TrialError::Provider(why));
    }
    Ok(())
}

/// Whether the task's compaction requirement is judged for this trial, and on what.
fn judged_compaction(
    scope: &Scope<'_>,
    metrics: Option<&ModelMetrics>,
) -> Result<Compaction, TrialError> {
    let (task, dir) = (&scope.job.task, &scope.job.dir);
    // Judged for nab-agent, and for any agent whose events claim a compaction (the claim is
    // checked against the summaries the gateway answered); other agents are scored on their
    // answers.
    Ok(match (&scope.job.agent, metrics) {
        (AgentKind::NabAgent, Some(m)) => Compaction::Judged(m.missing_compaction.clone()),
        (_, Some(m)) if m.claims_compaction => Compaction::Judged(m.missing_compaction.clone()),
        _ => {
            if task
                .spec
                .agent
                .as_ref()
                .is_some_and(|a| a.requires_compaction.is_some())
            {
                append_log(
                    dir,
                    "[nab: the task's requires_compaction is a requirement on nab-agent's context management; it is not judged for this agent, whose answers decide]\n",
                )?;
            }
            Compaction::NotJudged
        }
    })
}

/// What the blocking reader of the agent's workspace returns.
struct WorkspaceRead {
    /// diff.patch's text.
    patch: String,
    /// Protected paths the diff touched.
    flags: Vec<String>,
    /// The files `expect_file` steps compare.
    picks: Picks,
    /// How long the diff and the tamper scan took, of the reader's time.
    diff: Duration,
    tamper: Duration,
}

/// The blocking thread that parses the workspace archive as `rx` streams it in, and diffs
/// it against `original`.
fn spawn_reader(
    task: &Task,
    original: Snapshot,
    rx: tokio::sync::mpsc::Receiver<bytes::Bytes>,
) -> Result<tokio::task::JoinHandle<std::io::Result<WorkspaceRead>>, TrialError> {
    // The loader checked the globs; a failure here would be a harness defect.
    let protected =
        crate::task::Protected::new(&task.spec.protected).map_err(|e| TrialError::Files {
            dir: task.dir.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
    // The files `expect_file` steps compare come from this same archive: the workspace as
    // the agent left it, before any verify step (whose code could rewrite it) ran.
    let mut picks = Picks::new(
        task.spec.verify.iter().filter_map(|s| match s {
            VerifyStep::ExpectFile(f) => Some(f.path.as_str()),
            _ => None,
        }),
        EXPECTED_CAP,
    );
    Ok(tokio::task::spawn_blocking(move || {
        Snapshot::from_tar_picking(
            std::io::BufReader::new(crate::env::sandbox::ChunkReader::new(rx)),
            &mut picks,
        )
        .map(|after| {
            let started = Instant::now();
            let patch = workspace::diff(&original, &after);
            let diff = started.elapsed();
            let flags = tamper::touched(&protected, &original, &after);
            let tamper = started.elapsed() - diff;
            WorkspaceRead {
                patch,
                flags,
                picks,
                diff,
                tamper,
            }
        })
    }))
}

/// Sends the agent's workspace to `tx` as an archive: made here from its disk quota when
/// that is mounted on this machine (no round trip through the engine, which would walk the
/// same folder; see [`workspace::host_archive`]), else copied out by the engine. A quota
/// that cannot be walked here is copied by the engine.
async fn workspace_out(
    scope: &Scope<'_>,
    agent_c: &ContainerId,
    quota: Option<&DiskQuota>,
    tx: tokio::sync::mpsc::Sender<bytes::Bytes>,
) -> Result<(), SandboxError> {
    use workspace::host_archive::{self, HostArchiveError};
    if let Some(DiskQuota::Host(q)) = quota {
        let (root, into) = (q.path(), tx.clone());
        let sent = tokio::task::spawn_blocking(move || {
            host_archive::send(&root, "workspace", into, WORKSPACE_LIMIT)
        })
        .await
        .map_err(std::io::Error::other)?;
        match sent {
            Ok(()) => return Ok(()),
            Err(HostArchiveError::TooLarge { limit }) => {
                return Err(SandboxError::TooLarge { limit });
            }
            Err(HostArchiveError::Stream(e)) => return Err(SandboxError::Io(e)),
            Err(e @ HostArchiveError::Walk { .. }) => {
                tracing::warn!("{e}; copying the workspace through the engine instead");
            }
        }
    }
    scope
        .ctx
        .backend
        .copy_out(agent_c, "/workspace", tx, WORKSPACE_LIMIT)
        .await
}

/// Copies the agent's workspace out and diffs it against the original, writing diff.patch.
/// Returns the failure so far (a full quota, a workspace too large or unreadable), the
/// tamper flags and the files `expect_file` steps compare.
async fn read_workspace(
    scope: &Scope<'_>,
    agent_c: &ContainerId,
    quota: Option<&DiskQuota>,
    original: Snapshot,
    ws_full: bool,
    quota_full: bool,
) -> Result<(Option<FailureReason>, Vec<String>, Picks), TrialError> {
    let (task, dir) = (&scope.job.task, &scope.job.dir);
    // The archive streams into a parser on a blocking thread (nothing of it lands on the
    // host's disk); the diff is computed there too. Both are the agent's data, so both
    // have a deadline.
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    let reader = spawn_reader(task, original, rx)?;
    // The agent decides how large its workspace is (sparse files included: the archive
    // holds them at full size), so a workspace over the limit is its failure.
    let post_deadline = tokio::time::Instant::now() + POST_PROCESS_DEADLINE;
    let copied = if ws_full {
        // The verdict is in; reading a full quota back would only cost time.
        drop(tx);
        Ok(Ok(()))
    } else {
        tokio::time::timeout_at(post_deadline, workspace_out(scope, agent_c, quota, tx)).await
    };
    let read = tokio::time::timeout_at(post_deadline, reader).await;
    let mut failure = match copied {
        // Out of time: the reader below reports it.
        Ok(Ok(())) | Err(_) => None,
        Ok(Err(SandboxError::TooLarge { limit })) => {
            append_log(
                dir,
                &format!(
                    "[nab: the workspace is larger than {limit} bytes (sparse files count at their full size); not verified]\n"
                ),
            )?;
            Some(FailureReason::WorkspaceTooLarge)
        }
        Ok(Err(e)) => return Err(e.into()),
    };
    if quota_full {
        failure = Some(FailureReason::DiskQuota);
    }
    let mut tamper_flags = Vec::new();
    let mut picks = Picks::default();
    let mut parts = Vec::new();
    if failure.is_none() {
        let why = match read {
            Ok(Ok(Ok(r))) => {
                std::fs::write(dir.join(DIFF_FILE), r.patch).map_err(files_err(dir))?;
                tamper_flags = r.flags;
                picks = r.picks;
                parts = vec![(TrialPhase::Diff, r.diff), (TrialPhase::Tamper, r.tamper)];
                None
            }
            Ok(Ok(Err(e))) => Some(format!("the workspace archive could not be read: {e}")),
            Ok(Err(e)) => return Err(files_err(dir)(std::io::Error::other(e))),
            Err(_) => Some(format!(
                "copying, reading and diffing the workspace took longer than {} s",
                POST_PROCESS_DEADLINE.as_secs()
            )),
        };
        if let Some(why) = why {
            append_log(dir, &format!("[nab: {why}]\n"))?;
            failure = Some(FailureReason::BadAgentOutput);
        }
    }
    scope.clock.lap_split(TrialPhase::WorkspaceOut, &parts);
    Ok((failure, tamper_flags, picks))
}

/// Stops the gateway and computes the model metrics from its transcript and the agent's
/// events; lines the agent made unreadable fail the trial (`failure`) and go to agent.log.
async fn model_metrics(
    scope: &Scope<'_>,
    m: &ModelSetup,
    s: LlmSession,
    exit_reason: SandboxExit,
    failure: &mut Option<FailureReason>,
) -> Result<ModelMetrics, TrialError> {
    let (task, dir) = (&scope.job.task, &scope.job.dir);
    let out = s.finish(dir).await?;
    // The transcript is written by the gateway, but every line holds what the
    // agent sent: a line that does not read back is the agent's doing.
    // Read as a stream, without the requests (each repeats the whole history).
    let transcript = match nab_protocol::read_without_requests(&dir.join(TRANSCRIPT_FILE)) {
        Ok(read) => read.records,
        Err(e @ nab_protocol::JsonlError::Line { .. }) => {
            append_log(dir, &format!("[nab: transcript: {e}]\n"))?;
            failure.get_or_insert(FailureReason::BadAgentOutput);
            Vec::new()
        }
        Err(e) => {
            return Err(TrialError::Files {
                dir: dir.clone(),
                source: std::io::Error::other(e.to_string()),
            });
        }
    };
    if out.unreadable.is_some() || !out.bad_event_lines.is_empty() {
        failure.get_or_insert(FailureReason::BadAgentOutput);
    }
    let mut metrics = ModelMetrics::compute(
        &m.spec,
        &transcript,
        &out.events,
        exit_reason == SandboxExit::Timeout,
    );
    if matches!(scope.job.agent, AgentKind::Declared(_)) {
        metrics.steps_from_model_calls();
    }
    if let Some(tier) = task.spec.agent.as_ref().and_then(|a| a.requires_compaction) {
        // Summary requests the gateway answered, to check the agent's summarize events by.
        let path = dir.join(nab_protocol::TRANSCRIPT_FILE);
        let answered =
            tokio::task::spawn_blocking(move || nab_protocol::answered_summary_requests(&path))
                .await
                .map_err(|e| files_err(dir)(std::io::Error::other(e)))?
                // A line that does not read back was already the agent's `bad_agent_output`.
                .map_or(0, |seqs| seqs.len());
        metrics.missing_compaction = metrics::missing_compaction(tier, &out.events, answered);
        metrics.claims_compaction = out
            .events
            .iter()
            .any(|e| matches!(e.kind, nab_protocol::EventKind::Compaction { .. }));
    }
    metrics.usage.cost_usd = cost::trial_cost(m.price.as_ref(), &metrics.usage.tokens());
    // The gateway's own count also has the refusals past the transcript's cap.
    let refused = &mut metrics.behaviour.refused_requests;
    *refused = Some(refused.unwrap_or(0).max(out.refused_requests));
    let mut notes = String::new();
    if let Some(why) = &out.unreadable {
        notes.push_str(&format!("[nab: events.jsonl: {why}]\n"));
    }
    for bad in &out.bad_event_lines {
        notes.push_str(&format!("[nab: events.jsonl: ignored a line: {bad}]\n"));
    }
    if let Some(n) = &metrics.exit_reason_note {
        notes.push_str(&format!("[nab: {n}]\n"));
    }
    if !notes.is_empty() {
        append_log(dir, &notes)?;
    }
    Ok(metrics)
}
