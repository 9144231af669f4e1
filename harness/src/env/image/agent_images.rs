//! A declared agent's images: one on top of each distinct image the run's tasks have (a
//! task's own image, or the base image), shared by every task on that image. Built by the
//! task images' machinery ([`TaskRecipe::for_agent`]); the verifier never runs them.

use super::build::{Ensured, image_exists};
use super::task_build::{TaskImageError, ensure_task_image};
use super::task_recipe::TaskRecipe;
use crate::agents::DeclaredAgent;
use crate::env::sandbox::Engine as Docker;
use crate::task::Task;
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One image of a declared agent and the tasks whose trials run in it.
#[derive(Debug, Clone)]
pub struct AgentImage {
    pub recipe: TaskRecipe,
    pub tasks: Vec<String>,
}

/// Groups `tasks` by the image `agent` runs in for them, in tag order. A task with an
/// `environment:` must have its image's tag set (see [`super::suite_images`]); the others
/// run on `base`.
pub fn agent_images(base: &str, agent: &DeclaredAgent, tasks: &[Arc<Task>]) -> Vec<AgentImage> {
    let mut by_tag: BTreeMap<String, AgentImage> = BTreeMap::new();
    for t in tasks {
        let under = t.image.as_deref().unwrap_or(base);
        let recipe = TaskRecipe::for_agent(under, &agent.name, &agent.spec.environment);
        by_tag
            .entry(recipe.tag())
            .or_insert_with(|| AgentImage {
                recipe,
                tasks: Vec::new(),
            })
            .tasks
            .push(t.id().to_owned());
    }
    by_tag.into_values().collect()
}

/// Builds every missing image of `agent` for `tasks` (one at a time), after the images
/// they sit on. `on_start(i, n, image)` is called before each image that has to be built.
pub async fn ensure_agent_images(
    docker: &Docker,
    base: &str,
    agent: &DeclaredAgent,
    tasks: &[Arc<Task>],
    force: bool,
    progress: &ProgressBar,
    mut on_start: impl FnMut(usize, usize, &AgentImage),
) -> Result<Vec<(AgentImage, Ensured)>, TaskImageError> {
    let images = agent_images(base, agent, tasks);
    let n = images.len();
    let mut out = Vec::new();
    for (i, img) in images.into_iter().enumerate() {
        if force || !image_exists(docker, &img.recipe.tag()).await? {
            on_start(i + 1, n, &img);
        }
        let ensured = ensure_task_image(docker, &img.recipe, &img.tasks, force, progress).await?;
        out.push((img, ensured));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn tasks_on_the_same_image_share_the_agents_image() {
        let yaml = "id: a\ncategory: bug-fix\nlanguage: python\ndifficulty: easy\ntimeouts: {agent_s: 1, verify_s: 1}\nlimits: {cpus: 1, memory_mb: 256, pids: 64}\nverify: [{argv: [\"true\"], timeout_s: 1}]\nsolution: [\"true\"]\n";
        let task = |id: &str, image: Option<&str>| {
            let mut spec: crate::task::TaskSpec = serde_yaml::from_str(yaml).unwrap();
            spec.id = id.into();
            Arc::new(Task {
                spec,
                dir: PathBuf::from(id),
                wrong: vec![],
                pinned_tests: None,
                image: image.map(str::to_owned),
            })
        };
        let agent: DeclaredAgent = DeclaredAgent {
            name: "x".into(),
            dir: PathBuf::from("agents/x"),
            spec: serde_yaml::from_str(
                "description: d\nenvironment: {pip: [\"tomli==2.0.1\"]}\ncommand: [x]\ninstruction: stdin\napi: openai-chat\n",
            )
            .unwrap(),
        };
        let tasks = [
            task("a", None),
            task("b", Some("nab-task:go")),
            task("c", None),
        ];
        let images = agent_images("nab-base:1", &agent, &tasks);
        assert_eq!(images.len(), 2);
        let on_base = images
            .iter()
            .find(|i| i.recipe.base == "nab-base:1")
            .unwrap();
        assert_eq!(on_base.tasks, ["a", "c"]);
        let d = on_base.recipe.dockerfile();
        assert!(d.contains("python3-venv"), "{d}");
        assert!(
            d.contains("[\"python3\",\"-m\",\"venv\",\"/opt/nab-agent\"]"),
            "{d}"
        );
        assert!(d.contains("[\"/opt/nab-agent/bin/pip\",\"install\""), "{d}");
        assert!(
            !d.contains("--break-system-packages"),
            "the task's Python is left alone: {d}"
        );
        assert!(d.contains("nab.image=agent nab.agent=x"), "{d}");
        // It ends as every image does: the sandbox user in /workspace, then the label.
        assert_eq!(d.lines().rev().nth(1), Some("WORKDIR /workspace"), "{d}");
        assert_eq!(d.lines().rev().nth(2), Some("USER 1000:1000"), "{d}");
    }
}
