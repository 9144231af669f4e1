//! The grader the runner calls after each trial: one rubric and the judge models, built
//! once per run (from `--judge`/`--rubric`, see [`crate::cli::JudgeOpts`]).

use crate::error::JudgeError;
use crate::grade::grade;
use crate::model::JudgeModel;
use crate::prompt::Candidate;
use crate::rubric::Rubric;
use crate::trajectory::TrajectorySummary;
use nab_protocol::Event;
use nab_protocol::JudgeRecord;
use nab_protocol::TranscriptLine;

/// One rubric and the judge models, built once per run.
pub struct TrialGrader {
    pub rubric: Rubric,
    pub models: Vec<Box<dyn JudgeModel>>,
}

impl TrialGrader {
    /// Grades one trial with every judge. Judge and model errors are inside the records
    /// (`error`); `Err` only for a defect such as a broken template.
    pub async fn grade_trial(
        &self,
        instruction: &str,
        diff: &str,
        events: &[Event],
        transcript: &[TranscriptLine],
        tamper_flags: &[String],
    ) -> Result<Vec<JudgeRecord>, JudgeError> {
        let trajectory = TrajectorySummary::from_trial(events, transcript).render();
        let candidate = Candidate::new(diff, &trajectory).with_tamper_flags(tamper_flags);
        let mut records = Vec::with_capacity(self.models.len());
        for model in &self.models {
            records.push(
                grade(model.as_ref(), &self.rubric, instruction, &candidate)
                    .await?
                    .record,
            );
        }
        Ok(records)
    }
}
