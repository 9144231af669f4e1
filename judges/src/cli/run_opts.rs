//! `--judge` / `--rubric` for `nab run`, and the [`TrialGrader`] they build.

use super::load_rubric;
use crate::grader::TrialGrader;
use crate::model::ModelFactory;
use anyhow::Context;
use std::path::PathBuf;
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct JudgeOpts {
    /// Grade each trial with this judge model (provider spec, e.g. `openai:gpt-4.1`,
    /// `replay:cassette.jsonl`). Repeat for several judges; their scores are combined by median.
    #[arg(long = "judge", value_name = "SPEC")]
    pub judges: Vec<String>,
    /// Rubric YAML file (default: the shipped code-quality rubric).
    #[arg(long, value_name = "FILE")]
    pub rubric: Option<PathBuf>,
}

impl TrialGrader {
    /// None when no `--judge` was given.
    pub fn from_opts(
        opts: &JudgeOpts,
        factory: ModelFactory<'_>,
    ) -> anyhow::Result<Option<TrialGrader>> {
        if opts.judges.is_empty() {
            if opts.rubric.is_some() {
                anyhow::bail!(
                    "--rubric was given without --judge; add --judge SPEC to grade trials"
                );
            }
            return Ok(None);
        }
        let rubric = load_rubric(opts.rubric.as_deref())?;
        let models = opts
            .judges
            .iter()
            .map(|spec| factory(spec).with_context(|| format!("--judge {spec}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Some(TrialGrader { rubric, models }))
    }
}
