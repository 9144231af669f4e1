//! What a run records of its set-up beyond its specs (run.json's `provenance`): the
//! nab-agent build, the images, the pinned test set and the price. A bundle of the run
//! carries it, and `nab regrade` checks its own set-up against it.

use crate::task::Task;
use crate::task::pinned::LOCK_FILE;
use crate::trial::model::ModelSetup;
use nab_protocol::{AgentBuild, RunMeta, RunProvenance};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The set-up of a run of `tasks` (their images already resolved) on `base_image`.
pub fn of_run(
    model: Option<&ModelSetup>,
    base_image: &str,
    tasks: &[Arc<Task>],
    tasks_dir: &Path,
) -> RunProvenance {
    RunProvenance {
        agent_build: model
            .and_then(|m| m.nab_agent.as_deref())
            .and_then(agent_build),
        base_image: Some(base_image.to_owned()),
        task_images: tasks
            .iter()
            .filter_map(|t| Some((t.id().to_owned(), t.image.clone()?)))
            .collect(),
        tests_lock: file_sha256(&tasks_dir.join(LOCK_FILE)).ok(),
        price_per_mtok: model.and_then(|m| m.price.as_ref()).map(|p| {
            let r = &p.rate;
            [r.input, r.cached_input, r.cache_write, r.output]
        }),
    }
}

/// Records `provenance` in `<out>/run.json`.
pub fn record(out: &Path, meta: &mut RunMeta, provenance: RunProvenance) -> anyhow::Result<()> {
    meta.provenance = Some(provenance);
    meta.write(out)?;
    Ok(())
}

/// The version `binary --version` prints and the binary's hash; `None` when it cannot be
/// read (the run goes on: provenance is a record, not a check).
pub fn agent_build(binary: &Path) -> Option<AgentBuild> {
    let sha256 = file_sha256(binary).ok()?;
    let out = std::process::Command::new(binary)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    // `nab-agent 0.1.0`: the last word is the version.
    let version = text
        .split_whitespace()
        .last()
        .unwrap_or("unknown")
        .to_owned();
    Some(AgentBuild { version, sha256 })
}

/// `sha256:<hex>` of a file's bytes, streamed.
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(format!("sha256:{}", hex::encode(hasher.finalize())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_hash_is_its_sha256() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, "abc").unwrap();
        assert_eq!(
            file_sha256(&p).unwrap(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn an_agent_build_is_its_version_and_hash() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("agent");
        std::fs::write(&p, "#!/bin/sh\necho 'nab-agent 9.8.7'\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        let b = agent_build(&p).unwrap();
        assert_eq!(b.version, "9.8.7");
        assert_eq!(b.sha256, file_sha256(&p).unwrap());
    }
}
