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
