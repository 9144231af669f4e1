//! The Podman engine for the tests that run on it too: its Docker-compatible socket
//! (`podman system service`), and the base image copied there from Docker.
//!
//! Where no Podman answers, those tests print why and return, unless NAB_REQUIRE_PODMAN=1
//! (CI sets it): then they fail.

use nab_harness::env::sandbox::engine::url::EngineAddr;
use nab_harness::env::sandbox::{Engine, connect_to};
use std::path::PathBuf;

/// The socket: NAB_PODMAN_SOCKET, else rootful Podman's usual one.
pub fn socket() -> PathBuf {
    std::env::var_os("NAB_PODMAN_SOCKET")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/run/podman/podman.sock"))
}

/// `unix://<socket>`, as `nab run --engine` takes it.
pub fn url() -> String {
    format!("unix://{}", socket().display())
}

/// The Podman engine, or `None` (with the reason printed) where none answers and
/// NAB_REQUIRE_PODMAN is not 1.
pub async fn engine() -> Option<Engine> {
    let sock = socket();
    let reached = match sock.exists() {
        false => Err(format!("no socket at {}", sock.display())),
        true => connect_to(&EngineAddr::Unix(sock.clone()))
            .await
            .map_err(|e| e.to_string()),
    };
    match reached {
        Ok(e) => Some(e),
        Err(why) if std::env::var("NAB_REQUIRE_PODMAN").as_deref() == Ok("1") => {
            panic!("NAB_REQUIRE_PODMAN=1 but Podman is not reachable: {why}")
        }
        Err(why) => {
            eprintln!(
                "skipped: no Podman ({why}); start `podman system service --time=0 unix://{}` to run this test",
                sock.display()
            );
            None
        }
    }
}

/// Held while the base image is copied: tests running at once copy it once.
static COPYING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The base image on `podman`: copied from Docker (save, load) when missing there.
pub async fn base_image(podman: &Engine) -> String {
    let tag = super::base_image().await;
    let _copying = COPYING.lock().await;
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    if !nab_harness::env::sandbox::engine::image_exists(podman, &tag)
        .await
        .unwrap()
    {
        nab_harness::env::sandbox::engine::copy_image(&docker, podman, &tag)
            .await
            .unwrap();
    }
    tag
}

/// The podman CLI speaking to [`socket`]'s service (rootful or a user's).
fn cli() -> Vec<String> {
    ["podman", "--remote", "--url", &url()]
        .map(str::to_owned)
        .to_vec()
}

/// Names of Podman's containers and volumes carrying `label` (via the podman CLI,
/// independent of the code under test).
pub fn labelled(label: &str) -> (Vec<String>, Vec<String>) {
    let cli = cli();
    super::labelled_with(&cli.iter().map(String::as_str).collect::<Vec<_>>(), label)
}

/// Removes Podman's containers and volumes carrying `nab.run=<id>` when dropped.
pub struct SweepOnDrop(pub String);

impl Drop for SweepOnDrop {
    fn drop(&mut self) {
        let (containers, volumes) = labelled(&format!("nab.run={}", self.0));
        if !containers.is_empty() {
            let _ = std::process::Command::new("podman")
                .args(&cli()[1..])
                .args(["rm", "-f", "-v"])
                .args(&containers)
                .output();
        }
        if !volumes.is_empty() {
            let _ = std::process::Command::new("podman")
                .args(&cli()[1..])
                .args(["volume", "rm", "-f"])
                .args(&volumes)
                .output();
        }
    }
}
