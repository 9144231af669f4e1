//! `nab run --engine unix:///run/podman/podman.sock`: real suite tasks on Podman, end to
//! end (agent container, workspace copied out, verifier container). The oracle passes
//! them and the null agent fails them, as on Docker; nothing is left behind on Podman.
//! Skipped with the reason where no Podman answers (see `common::podman`).

use crate::common;

use nab_protocol::{TrialRecord, TrialStatus};
use std::path::Path;

/// Tasks on the base image alone (no task image to build on Podman): a shell task and a
/// C task.
const TASKS: [&str; 2] = ["sh-csv-quoting", "c-int-overflow"];

fn run(agent: &str, out: &Path, run_id: &str) -> (Vec<TrialRecord>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_nab"))
        .env("NAB_LOG", "error")
        .args(["run", "--engine", &common::podman::url(), "--agent", agent])
        .args(["--tasks", &common::repo_tasks().display().to_string()])
        .args(["-j", "2", "--run-id", run_id, "--out"])
        .arg(out)
        .args(TASKS)
        .output()
        .unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let records = std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, text)
}

#[tokio::test(flavor = "multi_thread")]
async fn on_podman_the_oracle_passes_and_the_null_agent_fails() {
    let Some(podman) = common::podman::engine().await else {
        return;
    };
    common::podman::base_image(&podman).await;
    let root = tempfile::tempdir().unwrap();
    for (agent, want) in [
        ("oracle", TrialStatus::Passed),
        ("null", TrialStatus::Failed),
    ] {
        let run_id = common::unique(&format!("podman-{agent}"));
        let _sweep = common::podman::SweepOnDrop(run_id.clone());
        let (records, text) = run(agent, &root.path().join(agent), &run_id);
        assert_eq!(records.len(), TASKS.len(), "{text}");
        for r in &records {
            assert_eq!(
                r.outcome.status, want,
                "{} with {agent}: {r:?}\n{text}",
                r.task_id
            );
        }
        assert_eq!(
            common::podman::labelled(&format!("nab.run={run_id}")),
            (vec![], vec![]),
            "the run left containers or volumes on Podman"
        );
    }
}

/// Removes a tag from Podman when the test ends, however it ends.
struct RemovePodmanImage(String);

impl Drop for RemovePodmanImage {
    fn drop(&mut self) {
        let _ = std::process::Command::new("podman")
            .args(["--remote", "--url", &common::podman::url(), "rmi", &self.0])
            .output();
    }
}

fn nab_image(args: &[&str]) -> (Option<i32>, String, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_nab"))
        .env("NAB_LOG", "error")
        .arg("image")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `nab image build|ls|rm --engine`: the images nab built on another engine are listed,
/// removed and built there, not on the default one; with two engines each row names its
/// engine, and a tag need only be on one of them.
#[tokio::test(flavor = "multi_thread")]
async fn nab_image_lists_removes_and_builds_on_the_engine_given() {
    let Some(podman) = common::podman::engine().await else {
        return;
    };
    let base = common::podman::base_image(&podman).await;
    let url = common::podman::url();
    // A second tag of the base image on Podman alone: it carries nab's label.
    let tag = format!("{}:1", common::unique("nab-image-engine").to_lowercase());
    let (repo, version) = tag.split_once(':').unwrap();
    podman
        .tag_image(
            &base,
            Some(bollard::query_parameters::TagImageOptions {
                repo: Some(repo.to_owned()),
                tag: Some(version.to_owned()),
            }),
        )
        .await
        .unwrap();
    let _untag = RemovePodmanImage(tag.clone());

    let (code, out, err) = nab_image(&["build", "--engine", &url]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out.trim(), base, "{err}");
    assert!(!err.contains("building"), "the base image is there: {err}");

    let (code, out, err) = nab_image(&["ls", "--engine", &url]);
    assert_eq!(code, Some(0), "{err}");
    // Podman names an image by its full reference (`docker.io/library/<tag>`).
    let row = out.lines().find(|l| l.contains(&tag)).unwrap_or_default();
    assert!(row.contains(" base "), "{out}");
    let (_, docker_rows, _) = nab_image(&["ls"]);
    assert!(
        !docker_rows.contains(&tag),
        "listed from Docker: {docker_rows}"
    );

    let (code, out, err) = nab_image(&["ls", "--engine", "default", "--engine", &url]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("engine "), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with(&url) && l.contains(&tag)),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("default ") && l.contains(&base)),
        "{out}"
    );

    let (code, out, err) = nab_image(&["rm", "--engine", "default", "--engine", &url, &tag]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("removed {tag} from engine {url}")),
        "{out}"
    );
    let gone = nab_harness::env::sandbox::engine::image_exists(&podman, &tag).await;
    assert!(!gone.unwrap(), "{tag} is still on Podman");
    assert!(
        nab_harness::env::sandbox::engine::image_exists(&podman, &base)
            .await
            .unwrap(),
        "removing a second tag took the base image"
    );

    let (code, _, err) = nab_image(&["rm", "--engine", "default", "--engine", &url, &tag]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("no image `{tag}` on any engine given")),
        "{err}"
    );
}
