//! `nab image ls|rm`: the images nab built (labelled `nab.image=base|task|agent`), and removing
//! them. Only images carrying that label are ever listed or removed.

use crate::env::sandbox::engine::{self, Engine as Docker, EngineError};

#[derive(Debug, Clone, PartialEq)]
pub struct NabImage {
    pub tag: String,
    /// `base`, `task` or `agent` (a declared agent's image).
    pub kind: String,
    pub size_bytes: i64,
    /// Seconds since the epoch.
    pub created: i64,
    /// For a task image: the base image it was built on.
    pub base: Option<String>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImageListError {
    #[error("Docker error while listing images: {0}")]
    List(#[source] EngineError),
    #[error(
        "`{0}` is not an image nab built (no `nab.image` label); nab removes only its own images"
    )]
    NotOurs(String),
    #[error("no image `{0}`; `nab image ls` lists nab's images")]
    Missing(String),
    #[error("Docker refused to remove {tag}: {source}")]
    Remove { tag: String, source: EngineError },
}

/// Every tagged image labelled `nab.image`, base images first, then by tag.
pub async fn list_images(docker: &Docker) -> Result<Vec<NabImage>, ImageListError> {
    let found = engine::images_labelled(docker, "nab.image")
        .await
        .map_err(ImageListError::List)?;
    let mut out = Vec::new();
    for img in found {
        let kind = img.labels.get("nab.image").cloned().unwrap_or_default();
        for tag in img.repo_tags.iter().filter(|t| !t.starts_with("<none>")) {
            out.push(NabImage {
                tag: tag.clone(),
                kind: kind.clone(),
                size_bytes: img.size_bytes,
                created: img.created,
                base: img.labels.get("nab.base").cloned(),
            });
        }
    }
    out.sort_by(|a, b| (a.kind.as_str(), &a.tag).cmp(&(b.kind.as_str(), &b.tag)));
    Ok(out)
}

/// Removes one image nab built, by tag. Refuses anything without nab's label.
pub async fn remove_image(docker: &Docker, tag: &str) -> Result<(), ImageListError> {
    let labels = engine::image_labels(docker, tag)
        .await
        .map_err(ImageListError::List)?
        .ok_or_else(|| ImageListError::Missing(tag.to_owned()))?;
    if !labels.contains_key("nab.image") {
        return Err(ImageListError::NotOurs(tag.to_owned()));
    }
    engine::remove_image(docker, tag)
        .await
        .map_err(|source| ImageListError::Remove {
            tag: tag.to_owned(),
            source,
        })?;
    Ok(())
}
