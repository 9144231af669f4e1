//! `import_rootfs`, how the base image reaches an engine: a root file system tarball
//! becomes `repo:tag` with its settings (environment, working folder, user, labels), on
//! Docker and on Podman (whose import ignores the tag and misreads the settings: nab
//! imports bare and names the image with a build `FROM` its ID).

use crate::common;

use nab_harness::env::sandbox::Engine;
use nab_harness::env::sandbox::engine::{import_rootfs, remove_image};

/// A root file system of one file: enough for the image's settings.
fn tarball(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("rootfs.tar");
    let mut tar = tar::Builder::new(std::fs::File::create(&path).unwrap());
    let body = b"imported\n";
    let mut h = tar::Header::new_gnu();
    h.set_size(body.len() as u64);
    h.set_mode(0o644);
    h.set_cksum();
    tar.append_data(&mut h, "etc/nab-imported", &body[..])
        .unwrap();
    tar.finish().unwrap();
    path
}

async fn imports_with_its_settings(engine: &Engine) {
    let dir = tempfile::tempdir().unwrap();
    let tag = format!("{:08x}", rand::random::<u32>());
    let name = format!("nab-test-import:{tag}");
    let changes = vec![
        "ENV PATH=/usr/bin:/bin".to_owned(),
        "ENV HOME=/tmp".to_owned(),
        "WORKDIR /workspace".to_owned(),
        "USER 1000:1000".to_owned(),
        format!("LABEL nab.image=test nab.recipe={tag}"),
    ];
    import_rootfs(
        engine,
        "nab-test-import",
        &tag,
        changes,
        &tarball(dir.path()),
    )
    .await
    .unwrap();
    let info = engine.inspect_image(&name).await.unwrap();
    let _ = remove_image(engine, &name).await;
    let config = info.config.unwrap();
    let env = config.env.unwrap_or_default();
    assert!(env.contains(&"HOME=/tmp".to_owned()), "{env:?}");
    assert!(env.contains(&"PATH=/usr/bin:/bin".to_owned()), "{env:?}");
    assert_eq!(config.working_dir.as_deref(), Some("/workspace"));
    assert_eq!(config.user.as_deref(), Some("1000:1000"));
    let labels = config.labels.unwrap_or_default();
    assert_eq!(labels.get("nab.image").map(String::as_str), Some("test"));
    assert_eq!(labels.get("nab.recipe"), Some(&tag));
    assert!(
        info.repo_tags
            .unwrap_or_default()
            .iter()
            .any(|t| t.ends_with(&name)),
        "the image is not named {name}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rootfs_imports_with_its_name_and_settings_on_docker() {
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    imports_with_its_settings(&docker).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rootfs_imports_with_its_name_and_settings_on_podman() {
    let Some(podman) = common::podman::engine().await else {
        return;
    };
    imports_with_its_settings(&podman).await;
}
