//! Importing a root file system tarball as an image, in a form every engine we support
//! reads the same way. Docker's `docker import` API takes `repo`, `tag` and Dockerfile-style
//! `changes`, but Podman's compatible API (4.3) ignores the tag (the image is named
//! `nab-base:latest`) and reads bollard's newline-joined `changes` as one `ENV` instruction.
//! So the tarball is imported bare, by ID, and its settings and name come from a one-stage
//! build `FROM <id>`: the builder API is what both engines implement alike.

use super::images::{BuildEvent, build_image};
use super::{Engine, EngineError, image_exists};
use bollard::query_parameters::{CreateImageOptionsBuilder, RemoveImageOptionsBuilder};
use futures::StreamExt;
use std::path::Path;

/// Why an import failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    #[error("cannot read the tarball: {0}")]
    Tarball(#[from] std::io::Error),
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The engine answered the import without naming the image it made.
    #[error("the engine named no image ID after the import (it answered {0:?})")]
    NoId(String),
    /// The build that applies the settings and the name failed.
    #[error("applying the image settings with a build FROM the imported {id} failed: {message}")]
    Configure { id: String, message: String },
    /// The check after the import failed.
    #[error(transparent)]
    Inspect(EngineError),
}

/// Imports a root file system tarball as `repo:tag` with Dockerfile-style `changes`
/// (`ENV`, `WORKDIR`, `USER`, `LABEL` lines), then checks the tag exists: an import that
/// streams no error can still fail silently.
pub async fn import_rootfs(
    engine: &Engine,
    repo: &str,
    tag: &str,
    changes: Vec<String>,
    tarball: &Path,
) -> Result<(), ImportError> {
    let id = import_bare(engine, tarball).await?;
    let name = format!("{repo}:{tag}");
    let configured = configure(engine, &id, &name, &changes).await;
    // The bare import is only a parent now. Docker refuses to remove a parent (409) and
    // drops it with its child; Podman untags it. Neither outcome needs handling.
    let opts = RemoveImageOptionsBuilder::default().build();
    if let Err(e) = engine.remove_image(&id, Some(opts), None).await {
        tracing::debug!("the bare import {id} stays as a parent: {e}");
    }
    configured?;
    if !image_exists(engine, &name)
        .await
        .map_err(ImportError::Inspect)?
    {
        return Err(ImportError::Engine(EngineError::DockerStreamError {
            error: format!("{name} is absent after import"),
        }));
    }
    Ok(())
}

/// `POST /images/create?fromSrc=-` with no name and no settings; returns the image ID.
async fn import_bare(engine: &Engine, tarball: &Path) -> Result<String, ImportError> {
    let options = CreateImageOptionsBuilder::default().from_src("-").build();
    let file = tokio::fs::File::open(tarball).await?;
    let body = tokio_util::io::ReaderStream::new(file);
    let mut events = engine.create_image(Some(options), Some(bollard::body_try_stream(body)), None);
    let mut said = Vec::new();
    while let Some(ev) = events.next().await {
        let ev = ev?;
        if let Some(e) = ev.error_detail.and_then(|d| d.message) {
            return Err(EngineError::DockerStreamError { error: e }.into());
        }
        // Docker puts the ID in `status`; Podman in `id` (and `status`).
        said.extend(ev.id.into_iter().chain(ev.status));
    }
    said.iter()
        .find_map(|s| image_id(s))
        .ok_or_else(|| ImportError::NoId(said.join(" ")))
}

/// `text` as `sha256:<64 hex>` when it is an image ID, with or without the prefix.
fn image_id(text: &str) -> Option<String> {
    let hex = text.trim();
    let hex = hex.strip_prefix("sha256:").unwrap_or(hex);
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| format!("sha256:{}", hex.to_ascii_lowercase()))
}

/// The Dockerfile that gives the image `id` its settings.
fn dockerfile(id: &str, changes: &[String]) -> String {
    let mut text = format!("FROM {id}\n");
    for c in changes {
        // One instruction per line: a change never continues onto another.
        text.push_str(&c.replace(['\n', '\r'], " "));
        text.push('\n');
    }
    text
}

/// Builds `FROM id` plus `changes` as `name`.
async fn configure(
    engine: &Engine,
    id: &str,
    name: &str,
    changes: &[String],
) -> Result<(), ImportError> {
    let context = pack(&dockerfile(id, changes))?;
    let failed = |message: String| ImportError::Configure {
        id: id.to_owned(),
        message,
    };
    let mut events = std::pin::pin!(build_image(engine, name, context));
    while let Some(ev) = events.next().await {
        match ev {
            Ok(BuildEvent::Output(_)) => {}
            Ok(BuildEvent::Failed(m)) => return Err(failed(m)),
            Err(e) => return Err(failed(e.to_string())),
        }
    }
    Ok(())
}

/// A build context holding only `dockerfile`.
fn pack(dockerfile: &str) -> std::io::Result<Vec<u8>> {
    let mut tar = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(dockerfile.len() as u64);
    h.set_mode(0o644);
    h.set_mtime(0);
    h.set_cksum();
    tar.append_data(&mut h, "Dockerfile", dockerfile.as_bytes())?;
    tar.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_id_is_read_with_or_without_its_prefix_and_nothing_else_is() {
        let hex = "5ED054797ff37e7c4ea8085a7585b216d3af547500c3b2ceb04ff9114350aabd";
        let want = format!("sha256:{}", hex.to_ascii_lowercase());
        assert_eq!(image_id(hex), Some(want.clone()));
        assert_eq!(image_id(&format!("sha256:{hex}\n")), Some(want));
        assert_eq!(image_id("Importing"), None);
        assert_eq!(image_id(&hex[1..]), None);
        assert_eq!(image_id(&format!("{}z", &hex[1..])), None);
    }

    #[test]
    fn each_change_is_one_dockerfile_line_after_from() {
        let changes = vec![
            "ENV HOME=/tmp".to_owned(),
            "LABEL a=b\nRUN touch /pwned".to_owned(),
        ];
        assert_eq!(
            dockerfile("sha256:ab", &changes),
            "FROM sha256:ab\nENV HOME=/tmp\nLABEL a=b RUN touch /pwned\n"
        );
    }
}
