//! Building a declared agent's images for the CLI: `nab run --agent <declared>` builds
//! the missing ones before its first trial, `nab image build --agent <declared>` ahead of
//! time. Each line says which image, for which tasks, and how long it took.

use nab_harness::agents::DeclaredAgent;
use nab_harness::env::image::{AgentImage, Ensured, ensure_agent_images};
use nab_harness::task::Task;
use std::sync::Arc;

/// Builds `agent`'s missing images for `tasks` on `docker` (each task already pointed at
/// its own image, or on `base`), with a spinner and one line per image built.
pub(crate) async fn ensure(
    docker: &nab_harness::env::sandbox::Engine,
    base: &str,
    agent: &DeclaredAgent,
    tasks: &[Arc<Task>],
    force: bool,
) -> anyhow::Result<Vec<(AgentImage, Ensured)>> {
    let pb = indicatif::ProgressBar::with_draw_target(None, super::spinner_target());
    pb.set_style(indicatif::ProgressStyle::with_template(
        "{spinner} [{elapsed}] {msg}",
    )?);
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    let built = ensure_agent_images(docker, base, agent, tasks, force, &pb, |i, n, img| {
        pb.suspend(|| {
            eprintln!(
                "building agent image {i}/{n} {} ({} on {}) for {} ...",
                img.recipe.tag(),
                agent.name,
                img.recipe.base,
                img.tasks.join(", ")
            )
        });
    })
    .await;
    pb.finish_and_clear();
    let built = built?;
    for (img, e) in &built {
        if let Some(t) = e.built_in {
            eprintln!(
                "built agent image {} ({} on {}) in {:.1} s",
                e.tag,
                agent.name,
                img.recipe.base,
                t.as_secs_f64()
            );
        }
    }
    Ok(built)
}

/// For `nab run`: waits for the task images, then builds the agent's missing images on the
/// first engine and copies them to the others. A failed build stops the run before its
/// first trial, with the command that builds the images by hand.
pub(crate) async fn for_run(
    prepared: &super::Prepared,
    agent: &DeclaredAgent,
    tasks: &[Arc<Task>],
) -> anyhow::Result<()> {
    prepared.all_images().await?;
    let built = ensure(prepared.connected.first(), &prepared.image, agent, tasks, false)
        .await
        .map_err(|e| {
            e.context(format!(
                "agent {}'s image could not be built; `nab image build --tasks <dir> --agent {}` builds it (and says why not)",
                agent.name, agent.name
            ))
        })?;
    let tags: Vec<String> = built.into_iter().map(|(_, e)| e.tag).collect();
    prepared
        .connected
        .spread_images(&tags, prepared.progress.as_ref())
        .await
}

/// [`for_run`] for each declared agent of `agents` (a sweep's), one after the other.
pub(crate) async fn for_agents(
    prepared: &super::Prepared,
    agents: &[nab_harness::trial::AgentKind],
    tasks: &[Arc<Task>],
) -> anyhow::Result<()> {
    for agent in agents {
        if let nab_harness::trial::AgentKind::Declared(a) = agent {
            for_run(prepared, a, tasks).await?;
        }
    }
    Ok(())
}
