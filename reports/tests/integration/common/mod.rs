//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod chrome;

use nab_protocol::TrialRecord;
use nab_reports::SynthSpec;
use nab_reports::write_synth_run;
use std::path::{Path, PathBuf};

/// A synthetic run of `tasks` × `trials`, written to `<root>/<name>`.
pub fn write(root: &Path, name: &str, spec: &SynthSpec, records: &[TrialRecord]) -> PathBuf {
    let dir = root.join(name);
    write_synth_run(&dir, spec, records).expect("write synthetic run");
    dir
}

pub fn spec(run_id: &str, tasks: usize, trials: u32, artifacts: bool) -> SynthSpec {
    let mut s = SynthSpec::new(run_id, tasks, trials);
    s.artifacts = artifacts;
    s
}

/// Validates each ATIF file with Harbor's published validator (`ci/atif-validator.sh`
/// installs it once); returns each file that failed with what the validator said.
pub fn harbor_rejects(files: &[PathBuf]) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/atif-validator.sh");
    let o = std::process::Command::new(&script).output().unwrap();
    assert!(
        o.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let python = String::from_utf8(o.stdout).unwrap().trim().to_owned();
    let mut bad = Vec::new();
    for f in files {
        let v = std::process::Command::new(&python)
            .args([
                "-m",
                "harbor.utils.trajectory_validator",
                "--no-validate-images",
            ])
            .arg(f)
            .output()
            .unwrap();
        if !v.status.success() {
            bad.push(format!(
                "{}: {}{}",
                f.display(),
                String::from_utf8_lossy(&v.stdout),
                String::from_utf8_lossy(&v.stderr)
            ));
        }
    }
    bad
}
