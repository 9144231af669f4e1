//! The task images a suite needs: one per distinct environment, shared by every task that
//! has it. Each task with an `environment:` gets its image's tag; the others keep `None`
//! and run the base image.

use super::build::Ensured;
use super::task_build::{TaskImageError, ensure_task_image};
use super::task_recipe::TaskRecipe;
use crate::env::sandbox::Engine as Docker;
use crate::task::Task;
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One task image and the tasks that run it.
#[derive(Debug, Clone)]
pub struct SuiteImage {
    pub recipe: TaskRecipe,
    pub tasks: Vec<String>,
}

/// Groups `tasks` by the image their environment builds on `base`, in tag order.
pub fn suite_images(base: &str, tasks: &[Arc<Task>]) -> Vec<SuiteImage> {
    let mut by_tag: BTreeMap<String, SuiteImage> = BTreeMap::new();
    for t in tasks {
        let Some(env) = &t.spec.environment else {
            continue;
        };
        let recipe = TaskRecipe::new(base, env);
        by_tag
            .entry(recipe.tag())
            .or_insert_with(|| SuiteImage {
                recipe,
                tasks: Vec::new(),
            })
            .tasks
            .push(t.id().to_owned());
    }
    by_tag.into_values().collect()
}

/// Builds every missing task image (in tag order, one at a time: builds are heavy) and
/// sets each task's `image`. `on_start(i, n, image)` is called before each image that has
/// to be built; the result lists what each image took.
pub async fn ensure_suite_images(
    docker: &Docker,
    base: &str,
    tasks: &mut [Arc<Task>],
    force: bool,
    progress: &ProgressBar,
    mut on_start: impl FnMut(usize, usize, &SuiteImage),
) -> Result<Vec<(SuiteImage, Ensured)>, TaskImageError> {
    let images = suite_images(base, tasks);
    let mut out = Vec::new();
    let n = images.len();
    for (i, img) in images.into_iter().enumerate() {
        let tag = img.recipe.tag();
        if force || !super::build::image_exists(docker, &tag).await? {
            on_start(i + 1, n, &img);
        }
        let ensured = ensure_task_image(docker, &img.recipe, &img.tasks, force, progress).await?;
        for t in tasks.iter_mut() {
            if img.tasks.iter().any(|id| id == t.id()) {
                Arc::make_mut(t).image = Some(ensured.tag.clone());
            }
        }
        out.push((img, ensured));
    }
    Ok(out)
}
