//! The base image every container runs: a Debian root file system built locally by
//! mmdebstrap from a recipe kept in the repository, imported into Docker, and tagged with
//! the recipe's hash so an unchanged recipe is never rebuilt. A task with an `environment:`
//! gets its own image on top of it (`nab-task:<hash>`), built by Docker's builder, and a
//! declared agent one on top of each task's image (`nab-agent-image:<name>-<hash>`).

mod agent_images;
mod build;
mod list;
mod recipe;
mod sources;
mod suite;
mod task_build;
mod task_recipe;

pub use agent_images::{AgentImage, agent_images, ensure_agent_images};
pub use build::{BuildError, Ensured, ensure_base_image, image_exists};
pub use list::{ImageListError, NabImage, list_images, remove_image};
pub use recipe::Recipe;
pub use suite::{SuiteImage, ensure_suite_images, suite_images};
pub use task_build::{TaskImageError, ensure_task_image};
pub use task_recipe::TaskRecipe;
