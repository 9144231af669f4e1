//! The verifier's side of a trial: its container, made while the agent runs; its `/nab`
//! (the hidden tests with this trial's canaries), staged once the agent has stopped while
//! the agent's workspace is read; then its steps. See the book's trial lifecycle page for
//! why each may run when it does.

use super::{
    Collected, Scope, TrialError, VERIFY_SCRATCH_MB, Verified, canary, files_err, lockdown,
    mcp_host, read_capped, verify,
};
use crate::env::sandbox::{
    ContainerId, ContainerSpec, DiskQuota, SANDBOX_UID, TmpfsMount, VERIFIER_UID, VolumeId,
};
use crate::task::{Task, VerifierMode};
use nab_protocol::{TEST_IDS_FILE, TrialPhase, VERIFY_LOG_FILE};
use std::time::Instant;

/// The verifier's container, made and recorded for removal.
pub(super) async fn make_verifier(
    scope: &Scope<'_>,
    image: &str,
    volume: &VolumeId,
) -> Result<ContainerId, TrialError> {
    let shared = scope.job.task.spec.verifier == VerifierMode::Shared;
    let spec = verifier_spec(scope, image, volume, shared);
    let verifier = scope.ctx.backend.create(&spec).await?;
    scope.created().containers.push(verifier.clone());
    Ok(verifier)
}

/// Whether the workspace is closed to the verifier user from the host after the agent (a
/// disk quota on this machine, a verifier that keeps its users apart): see `close_on_host`.
pub(super) fn closes_on_host(task: &Task, quota: Option<&DiskQuota>) -> bool {
    matches!(quota, Some(DiskQuota::Host(_))) && task.spec.verifier != VerifierMode::Shared
}

/// The hidden tests, as this trial's copy with canaries planted under names drawn here, on
/// the host, after the agent has stopped (see `verify::stage` for who owns what), copied
/// into the verifier; with the MCP servers' record (written by the host from what they
/// answered, final once they stopped) for the hidden tests to replay. `host_closes`: the
/// workspace is being closed from the host, so the verifier need not.
pub(super) async fn stage(
    scope: &Scope<'_>,
    verifier: &ContainerId,
    host_closes: bool,
) -> Result<(canary::Canary, verify::Staged), TrialError> {
    let (task, dir) = (&scope.job.task, &scope.job.dir);
    let shared = task.spec.verifier == VerifierMode::Shared;
    let canary = canary::Canary::random(!shared);
    let tests_dir = task.tests_dir();
    let planted = canary.files();
    let record =
        (!task.spec.mcp_servers.is_empty()).then(|| dir.join(nab_protocol::MCP_CALLS_FILE));
    let nab_tree = tokio::task::spawn_blocking(move || {
        let record = match record {
            Some(path) => Some(read_capped(&path, mcp_host::RECORD_CAP)?),
            None => None,
        };
        verify::stage::pack(&tests_dir, &planted, shared, record.as_deref())
    })
    .await
    .map_err(|e| files_err(&task.tests_dir())(std::io::Error::other(e)))?
    .map_err(files_err(&task.tests_dir()))?;
    let backend = scope.ctx.backend.as_ref();
    let staged =
        verify::stage_in(backend, verifier, task, nab_tree, host_closes, scope.cancel).await?;
    Ok((canary, staged))
}

/// A fresh container runs the verify steps on the agent's workspace; nothing the agent ran
/// survives into it. Writes verify.log and the test ids. `staged`: its `/nab` in place;
/// `host_closes`: it counted on the host closing the workspace.
pub(super) async fn verify_phase(
    scope: &Scope<'_>,
    verifier: &ContainerId,
    collected: &Collected,
    (canary, mut staged): (canary::Canary, verify::Staged),
    host_closes: bool,
) -> Result<Verified, TrialError> {
    let (ctx, task, dir) = (scope.ctx, &scope.job.task, &scope.job.dir);
    let verify_started = Instant::now();
    if host_closes && !collected.workspace_closed {
        verify::close_late(ctx.backend.as_ref(), verifier, &mut staged, scope.cancel).await?;
    }
    let v = verify::run_steps(
        ctx.backend.as_ref(),
        verifier,
        task,
        verify::Inputs {
            picks: &collected.picks,
            canary: &canary,
            stop_at_first_failure: scope.job.stop_at_first_failure,
        },
        staged,
        scope.cancel,
    )
    .await?;
    let verify_s = verify_started.elapsed().as_secs_f64();
    std::fs::write(dir.join(VERIFY_LOG_FILE), &v.log).map_err(files_err(dir))?;
    // The ids the reports listed (canary left out), sorted: `nab validate` pins the
    // oracle's in tests.lock.
    let mut ids = v.test_ids.clone();
    ids.sort();
    ids.dedup();
    let ids = serde_json::to_string_pretty(&ids).map_err(|e| files_err(dir)(e.into()))?;
    std::fs::write(dir.join(TEST_IDS_FILE), ids + "\n").map_err(files_err(dir))?;
    scope.clock.lap(TrialPhase::Tests);
    Ok(Verified {
        failure: v.failure,
        tests_passed: v.tests_passed,
        tests_total: v.tests_total,
        verify_s,
    })
}

/// The verifier's container: locked down like the agent's, on the agent's workspace volume,
/// with /nab a scratch volume of its own and tmpfs folders for its scratch space (the
/// verifier user's alone, unless the task's verifier is `shared`) and the broker's socket.
fn verifier_spec(scope: &Scope<'_>, image: &str, volume: &VolumeId, shared: bool) -> ContainerSpec {
    let task = &scope.job.task;
    ContainerSpec {
        image: image.to_owned(),
        labels: scope.labels("verify"),
        limits: lockdown(task),
        workspace: Some(volume.clone()),
        binds: vec![],
        scratch_volumes: vec!["/nab".into()],
        tmpfs: vec![
            if shared {
                TmpfsMount::shared(verify::stage::SCRATCH, VERIFY_SCRATCH_MB)
            } else {
                TmpfsMount {
                    path: verify::stage::SCRATCH.into(),
                    mb: VERIFY_SCRATCH_MB,
                    uid: VERIFIER_UID,
                    mode: 0o700,
                }
            },
            TmpfsMount {
                path: verify::stage::RPC.into(),
                mb: 1,
                uid: SANDBOX_UID,
                mode: 0o755,
            },
        ],
        env: vec!["HOME=/tmp".into(), "LANG=C.UTF-8".into()],
    }
}
