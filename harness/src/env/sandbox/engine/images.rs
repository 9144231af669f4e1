//! The engine's image calls for `nab image`: listing and removing images by label, and
//! building one from a tar context. Callers get plain values, not bollard's types.

use super::{Engine, EngineError};
use bollard::query_parameters::{
    BuildImageOptionsBuilder, ListImagesOptionsBuilder, RemoveImageOptionsBuilder,
};
use futures::{Stream, StreamExt};
use std::collections::HashMap;

/// One image as the engine lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageSummary {
    /// `repo:tag` names; untagged images have `<none>:<none>`.
    pub repo_tags: Vec<String>,
    pub labels: HashMap<String, String>,
    pub size_bytes: i64,
    /// Seconds since the epoch.
    pub created: i64,
}

/// Every image that carries the label `label` (any value).
pub async fn images_labelled(
    engine: &Engine,
    label: &str,
) -> Result<Vec<ImageSummary>, EngineError> {
    let filters = HashMap::from([("label", vec![label])]);
    let opts = ListImagesOptionsBuilder::default()
        .filters(&filters)
        .build();
    let found = engine.list_images(Some(opts)).await?;
    Ok(found
        .into_iter()
        .map(|img| ImageSummary {
            repo_tags: img.repo_tags,
            labels: img.labels,
            size_bytes: img.size,
            created: img.created,
        })
        .collect())
}

/// The labels of the image tagged `tag`, or `None` when the engine has no such image.
pub async fn image_labels(
    engine: &Engine,
    tag: &str,
) -> Result<Option<HashMap<String, String>>, EngineError> {
    match engine.inspect_image(tag).await {
        Ok(info) => Ok(Some(info.config.and_then(|c| c.labels).unwrap_or_default())),
        Err(EngineError::DockerResponseServerError {
            status_code: 404, ..
        }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Removes the image tagged `tag` (not forced: an image a container uses stays).
pub async fn remove_image(engine: &Engine, tag: &str) -> Result<(), EngineError> {
    let opts = RemoveImageOptionsBuilder::default().build();
    engine.remove_image(tag, Some(opts), None).await?;
    Ok(())
}

/// What the builder reports while it builds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildEvent {
    /// Output text (one or more lines).
    Output(String),
    /// The build failed with this message.
    Failed(String),
}

/// Builds `context` (a tar with a `Dockerfile` at its root) as `tag` with the classic
/// builder, removing intermediate containers even on failure. Each engine message becomes
/// zero or more [`BuildEvent`]s; an error of the call itself ends the stream.
pub fn build_image<'a>(
    engine: &'a Engine,
    tag: &str,
    context: Vec<u8>,
) -> impl Stream<Item = Result<BuildEvent, EngineError>> + use<'a> {
    let options = BuildImageOptionsBuilder::default()
        .dockerfile("Dockerfile")
        .t(tag)
        .rm(true)
        .forcerm(true)
        .build();
    engine
        .build_image(options, None, Some(bollard::body_full(context.into())))
        .flat_map(|ev| {
            let events: Vec<Result<BuildEvent, EngineError>> = match ev {
                Err(e) => vec![Err(e)],
                Ok(info) => info
                    .stream
                    .map(BuildEvent::Output)
                    .into_iter()
                    .chain(info.error_detail.map(|d| {
                        BuildEvent::Failed(
                            d.message.unwrap_or_else(|| "the build failed".to_owned()),
                        )
                    }))
                    .map(Ok)
                    .collect(),
            };
            futures::stream::iter(events)
        })
}
