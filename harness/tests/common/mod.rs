//! Helpers shared by the Docker-backed tests: one base image for all of them, temporary
//! suites, and label-based checks for leftovers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Mutex;

static IMAGE: Mutex<Option<String>> = Mutex::new(None);

/// The base image tag, built once (if missing) and shared by every test.
pub async fn base_image() -> String {
    // Hold the lock across the build so parallel tests in one binary do not build twice.
    let mut guard = IMAGE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = guard.as_ref() {
        return t.clone();
    }
    let tag = tokio::task::block_in_place(|| {
        tokio::runtime::Handle::current().block_on(async {
            let docker = nab_harness::docker::connect().await.expect("docker");
            let recipe = nab_harness::image::Recipe::default();
            let pb = indicatif::ProgressBar::hidden();
            nab_harness::image::ensure_base_image(&docker, &recipe, false, &pb)
                .await
                .expect("base image")
                .tag
        })
    });
    *guard = Some(tag.clone());
    tag
}

pub fn repo_tasks() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tasks")
}

pub fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from).follow_links(false) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else if e.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

pub fn write_exec(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    write(path, text);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Names of containers and volumes carrying `label` (via the docker CLI, independent of
/// the code under test).
pub fn labelled(label: &str) -> (Vec<String>, Vec<String>) {
    let run = |args: &[&str]| {
        let out = std::process::Command::new("docker")
            .args(args)
            .output()
            .expect("docker CLI");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
    };
    let filter = format!("label={label}");
    (
        run(&["ps", "-aq", "--filter", &filter]),
        run(&["volume", "ls", "-q", "--filter", &filter]),
    )
}

pub fn unique(prefix: &str) -> String {
    format!(
        "{prefix}-{}-{:08x}",
        std::process::id(),
        rand::random::<u32>()
    )
}

/// Removes whatever carries `nab.run=<id>` when dropped, so a failing test (which panics
/// before its own cleanup) leaves nothing behind for the next one.
pub struct SweepOnDrop(pub String);

impl Drop for SweepOnDrop {
    fn drop(&mut self) {
        let (containers, volumes) = labelled(&format!("nab.run={}", self.0));
        if !containers.is_empty() {
            let _ = std::process::Command::new("docker")
                .args(["rm", "-f", "-v"])
                .args(&containers)
                .output();
        }
        if !volumes.is_empty() {
            let _ = std::process::Command::new("docker")
                .args(["volume", "rm", "-f"])
                .args(&volumes)
                .output();
        }
    }
}
