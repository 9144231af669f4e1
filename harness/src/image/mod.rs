//! The base image every container runs: a Debian root file system built locally by
//! mmdebstrap from a recipe kept in the repository, imported into Docker, and tagged with
//! the recipe's hash so an unchanged recipe is never rebuilt.

mod build;
mod recipe;
mod sources;

pub use build::{BuildError, Ensured, ensure_base_image, image_exists};
pub use recipe::{IMAGE_REPO, Recipe};
pub use sources::{AptSource, SourcesError, parse_deb822, parse_one_line};
