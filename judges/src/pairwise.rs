//! Position-swapped pairwise comparison of a baseline and a candidate on the same task.
//!
//! Judges favour whichever answer they see first. Each pair is therefore judged twice:
//! baseline as A then candidate as A. Each answer is mapped back to a [`Winner`] (a run,
//! or a tie), and a winner counts only when both orders agree. Disagreement is recorded as
//! `inconsistent` — scored like a tie, but counted apart from a tie the judge actually
//! gave, so position bias is visible.
//!
//! The pairs file (`nab compare --judge`, default `<candidate>/pairwise.jsonl`) holds one
//! [`PairLine`] per judged pair; [`read_pairs`] reads it back and [`read_verdicts`] turns it
//! (or a file of plain [`PairwiseVerdict`]s) into the verdicts the reports show.

use crate::answer_schema::pairwise_schema;
use crate::error::JudgeError;
use crate::fit::fitted_pairwise_prompt;
use crate::grade::{Failure, ask_validated};
use crate::model::JudgeModel;
use crate::parse::{Side, parse_pairwise};
use crate::prompt::Candidate;
use crate::rubric::Rubric;
use nab_protocol::{PairwiseVerdict, Winner};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The result of one pair, from the candidate's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairOutcome {
    Win,
    Loss,
    Tie,
    /// The two orders disagreed.
    Inconsistent,
    /// A judge or model error in either order: not counted.
    Error,
}

impl PairOutcome {
    /// The winner a reader scores and whether both orders agreed; `None` for an error.
    /// An inconsistent pair is scored as a tie, flagged as inconsistent.
    pub fn verdict(self) -> Option<(Winner, bool)> {
        match self {
            PairOutcome::Win => Some((Winner::Candidate, true)),
            PairOutcome::Loss => Some((Winner::Baseline, true)),
            PairOutcome::Tie => Some((Winner::Tie, true)),
            PairOutcome::Inconsistent => Some((Winner::Tie, false)),
            PairOutcome::Error => None,
        }
    }
}

/// Maps the side a judge picked back to a run. In the first order the baseline is A; when
/// `swapped` the candidate is A.
pub fn map_back(side: Side, swapped: bool) -> Winner {
    match (side, swapped) {
        (Side::Tie, _) => Winner::Tie,
        (Side::A, false) | (Side::B, true) => Winner::Baseline,
        (Side::B, false) | (Side::A, true) => Winner::Candidate,
    }
}

/// Both orders must agree for a result to count.
pub fn combine_orders(first: Winner, second: Winner) -> PairOutcome {
    match (first, second) {
        (Winner::Candidate, Winner::Candidate) => PairOutcome::Win,
        (Winner::Baseline, Winner::Baseline) => PairOutcome::Loss,
        (Winner::Tie, Winner::Tie) => PairOutcome::Tie,
        _ => PairOutcome::Inconsistent,
    }
}

/// One judged pair, with both raw answers kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairJudgement {
    pub judge_model: String,
    pub rubric_id: String,
    pub rubric_hash: String,
    pub outcome: PairOutcome,
    /// Baseline shown as A.
    pub first: Option<Winner>,
    /// Candidate shown as A.
    pub second: Option<Winner>,
    pub evidence: Vec<String>,
    pub prompt_hashes: [String; 2],
    pub raw_outputs: [String; 2],
    pub retries: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Judges baseline vs candidate in both orders.
pub async fn compare_pair(
    model: &dyn JudgeModel,
    rubric: &Rubric,
    instruction: &str,
    baseline: &Candidate,
    candidate: &Candidate,
) -> Result<PairJudgement, JudgeError> {
    let mut j = PairJudgement {
        judge_model: model.id(),
        rubric_id: rubric.id.clone(),
        rubric_hash: rubric.hash.clone(),
        outcome: PairOutcome::Error,
        first: None,
        second: None,
        evidence: Vec::new(),
        prompt_hashes: Default::default(),
        raw_outputs: Default::default(),
        retries: 0,
        input_tokens: 0,
        output_tokens: 0,
        error: None,
    };
    let mut errors = Vec::new();
    let schema = pairwise_schema();
    for (i, swapped) in [false, true].into_iter().enumerate() {
        let (a, b) = if swapped {
            (candidate, baseline)
        } else {
            (baseline, candidate)
        };
        let prompt = fitted_pairwise_prompt(rubric, instruction, a, b, model.window())?;
        let asked = ask_validated(model, &prompt, &schema, parse_pairwise).await?;
        j.prompt_hashes[i] = prompt.hash;
        j.raw_outputs[i] = asked.last_raw;
        j.retries += asked.retries;
        j.input_tokens += asked.usage.prompt_tokens;
        j.output_tokens += asked.usage.completion_tokens;
        let order = if swapped {
            "candidate as A"
        } else {
            "baseline as A"
        };
        match asked.result {
            Ok(answer) => {
                let pref = map_back(answer.winner, swapped);
                if swapped {
                    j.second = Some(pref)
                } else {
                    j.first = Some(pref)
                }
                j.evidence.push(answer.evidence);
            }
            Err(Failure::Rejected(r)) => errors.push(format!(
                "judge_error ({order}): {r} (after {} retries)",
                asked.retries
            )),
            Err(Failure::Model(e)) => errors.push(format!("model_error ({order}): {e}")),
        }
    }
    match (j.first, j.second) {
        (Some(a), Some(b)) => j.outcome = combine_orders(a, b),
        _ => j.error = Some(errors.join("; ")),
    }
    Ok(j)
}

/// One line of the pairs file: a judged pair of one (task, trial) of two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairLine {
    pub task_id: String,
    pub trial: u32,
    /// The run ids judged, so the file cannot later be mixed into another run pair.
    pub baseline_run: String,
    pub candidate_run: String,
    #[serde(flatten)]
    pub judgement: PairJudgement,
}

impl PairLine {
    /// The verdict the reports show; `None` for a pair with a judge or model error.
    pub fn verdict(&self) -> Option<PairwiseVerdict> {
        JudgedPair {
            task_id: self.task_id.clone(),
            trial: Some(self.trial),
            outcome: self.judgement.outcome,
            judge_model: Some(self.judgement.judge_model.clone()),
            evidence: self.judgement.evidence.clone(),
            baseline_run: Some(self.baseline_run.clone()),
            candidate_run: Some(self.candidate_run.clone()),
        }
        .verdict()
    }
}

/// What a reader needs of a [`PairLine`] (the raw answers and hashes stay in the file).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct JudgedPair {
    pub task_id: String,
    #[serde(default)]
    pub trial: Option<u32>,
    pub outcome: PairOutcome,
    #[serde(default)]
    pub judge_model: Option<String>,
    #[serde(default)]
    pub evidence: Vec<String>,
    #[serde(default)]
    pub baseline_run: Option<String>,
    #[serde(default)]
    pub candidate_run: Option<String>,
}

impl JudgedPair {
    /// The verdict the reports show: the winner by run, the judge's evidence of both
    /// orders as the reason; `None` for a pair with a judge or model error.
    pub fn verdict(&self) -> Option<PairwiseVerdict> {
        let (winner, consistent) = self.outcome.verdict()?;
        Some(PairwiseVerdict {
            task_id: self.task_id.clone(),
            trial: self.trial,
            winner,
            consistent,
            judge_model: self.judge_model.clone(),
            reason: (!self.evidence.is_empty()).then(|| self.evidence.join(" / ")),
            baseline_run: self.baseline_run.clone(),
            candidate_run: self.candidate_run.clone(),
        })
    }
}

/// Reads a pairs file `nab compare --judge` wrote.
pub fn read_pairs(path: &Path) -> Result<Vec<JudgedPair>, JudgeError> {
    Ok(nab_protocol::read_jsonl::<JudgedPair>(path)
        .map_err(|e| pairs_error(path, e))?
        .records)
}

fn pairs_error(path: &Path, e: nab_protocol::JsonlError) -> JudgeError {
    JudgeError::RunDir {
        path: path.to_owned(),
        message: format!(
            "{e}; is this the pairs file `nab compare --judge` wrote (`--pairs-out`), or a file of pairwise verdicts?"
        ),
    }
}

/// Reads pairwise verdicts from a file in either format: the judges' pair lines (what
/// `nab compare --judge` writes, recognised by their `outcome`; pairs with an error are
/// left out) or plain verdicts (`task_id`, `winner`, `consistent`, …).
pub fn read_verdicts(path: &Path) -> Result<Vec<PairwiseVerdict>, JudgeError> {
    /// Only whether the line has an `outcome`.
    #[derive(Deserialize)]
    struct Probe {
        #[serde(default)]
        outcome: Option<serde::de::IgnoredAny>,
    }
    let parse = |_, line: &str| -> Result<Option<PairwiseVerdict>, serde_json::Error> {
        let probe: Probe = serde_json::from_str(line)?;
        if probe.outcome.is_some() {
            let pair: JudgedPair = serde_json::from_str(line)?;
            Ok(pair.verdict())
        } else {
            serde_json::from_str(line).map(Some)
        }
    };
    let read =
        nab_protocol::read_jsonl_with(path, usize::MAX, parse).map_err(|e| pairs_error(path, e))?;
    Ok(read.records.into_iter().flatten().collect())
}

/// Counts over many pairs, and the candidate's score by task.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PairwiseReport {
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    pub inconsistent: u64,
    /// Pairs with a judge or model error in either order (excluded from `n`).
    pub errors: u64,
    /// wins + losses + ties + inconsistent.
    pub n: u64,
    /// (wins + losses + ties) / n: how often both orders agreed.
    pub swap_consistency: Option<f64>,
    /// The candidate's score, task by task: per task the mean over its pairs of 1 (win), 0
    /// (loss) or ½ (tie or inconsistent), then the mean over tasks. Trials of one task are
    /// not independent evidence, so the task is the unit (as in the reports).
    pub score: Option<f64>,
    /// Tasks behind `score`.
    pub tasks: usize,
    /// 95% percentile bootstrap of `score` over tasks (seeded; `None` with too few tasks).
    pub score_ci: Option<crate::kappa::Interval>,
}

/// Seed of the score's bootstrap over tasks (fixed: the same pairs give the same interval).
const SCORE_SEED: u64 = 0x7061_6972_7769_7365; // "pairwise"
/// Resamples of that bootstrap.
const SCORE_RESAMPLES: usize = 10_000;

impl PairwiseReport {
    /// From (task id, outcome) pairs.
    pub fn from_outcomes<'a>(
        outcomes: impl IntoIterator<Item = (&'a str, &'a PairOutcome)>,
    ) -> PairwiseReport {
        let mut r = PairwiseReport::default();
        let mut by_task: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        for (task, o) in outcomes {
            let score = match o {
                PairOutcome::Win => {
                    r.wins += 1;
                    1.0
                }
                PairOutcome::Loss => {
                    r.losses += 1;
                    0.0
                }
                PairOutcome::Tie => {
                    r.ties += 1;
                    0.5
                }
                PairOutcome::Inconsistent => {
                    r.inconsistent += 1;
                    0.5
                }
                PairOutcome::Error => {
                    r.errors += 1;
                    continue;
                }
            };
            by_task.entry(task).or_default().push(score);
        }
        r.n = r.wins + r.losses + r.ties + r.inconsistent;
        if r.n > 0 {
            let n = r.n as f64;
            r.swap_consistency = Some((r.wins + r.losses + r.ties) as f64 / n);
        }
        let per_task: Vec<f64> = by_task
            .values()
            .map(|v| v.iter().sum::<f64>() / v.len() as f64)
            .collect();
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        r.tasks = per_task.len();
        r.score = mean(&per_task);
        r.score_ci = crate::kappa::bootstrap_95(&per_task, mean, SCORE_RESAMPLES, SCORE_SEED);
        r
    }

    /// A Markdown table row block.
    pub fn render_markdown(&self, judge: &str) -> String {
        let pct = |x: Option<f64>| x.map_or("n/a".to_owned(), |v| format!("{:.1}%", v * 100.0));
        let score = self.score.map_or("n/a".to_owned(), |v| format!("{v:.3}"));
        let ci = self
            .score_ci
            .as_ref()
            .map_or("n/a".to_owned(), |i| format!("{:.3}–{:.3}", i.lo, i.hi));
        format!(
            "| judge | W | L | T | inconsistent | errors | N | swap-consistency | score by task (W 1, T ½) | 95% CI over {} tasks |\n|---|---|---|---|---|---|---|---|---|---|\n| {judge} | {} | {} | {} | {} | {} | {} | {} | {score} | {ci} |\n",
            self.tasks,
            self.wins,
            self.losses,
            self.ties,
            self.inconsistent,
            self.errors,
            self.n,
            pct(self.swap_consistency)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_back_from_swapped_order() {
        assert_eq!(map_back(Side::A, false), Winner::Baseline);
        assert_eq!(map_back(Side::B, false), Winner::Candidate);
        assert_eq!(map_back(Side::A, true), Winner::Candidate);
        assert_eq!(map_back(Side::B, true), Winner::Baseline);
        assert_eq!(map_back(Side::Tie, true), Winner::Tie);
    }

    #[test]
    fn outcomes_map_to_runs_and_errors_are_left_out() {
        let line = |o: &str| {
            serde_json::from_value::<JudgedPair>(serde_json::json!({"task_id": "t1", "trial": 2,
                "judge_model": "scripted:j", "outcome": o, "evidence": ["first", "second"]}))
        };
        let win = line("win").unwrap().verdict().unwrap();
        assert_eq!(
            (win.winner, win.consistent, win.trial),
            (Winner::Candidate, true, Some(2))
        );
        assert_eq!(win.reason.as_deref(), Some("first / second"));
        assert_eq!(win.judge_model.as_deref(), Some("scripted:j"));
        let loss = line("loss").unwrap().verdict().unwrap();
        assert_eq!((loss.winner, loss.consistent), (Winner::Baseline, true));
        let tie = line("tie").unwrap().verdict().unwrap();
        assert_eq!((tie.winner, tie.consistent), (Winner::Tie, true));
        let inc = line("inconsistent").unwrap().verdict().unwrap();
        assert_eq!((inc.winner, inc.consistent), (Winner::Tie, false));
        assert!(line("error").unwrap().verdict().is_none());
        assert!(line("maybe").unwrap_err().to_string().contains("maybe"));
    }

    #[test]
    fn reads_both_file_formats() {
        let dir = tempfile::tempdir().unwrap();
        let judges = dir.path().join("pairs.jsonl");
        std::fs::write(
            &judges,
            "{\"task_id\":\"a\",\"trial\":0,\"outcome\":\"win\",\"evidence\":[]}\n{\"task_id\":\"b\",\"trial\":0,\"outcome\":\"error\"}\n",
        )
        .unwrap();
        let r = read_verdicts(&judges).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].winner, Winner::Candidate);
        let reports = dir.path().join("records.jsonl");
        std::fs::write(
            &reports,
            "{\"task_id\":\"a\",\"winner\":\"baseline\",\"consistent\":true}\n",
        )
        .unwrap();
        assert_eq!(read_verdicts(&reports).unwrap()[0].winner, Winner::Baseline);
        std::fs::write(&reports, "{\"task_id\":\"a\",\"winner\":\"nobody\"}\n").unwrap();
        assert!(read_verdicts(&reports).is_err());
        // A bad verdict file (what `nab compare --pairwise` reads) is a clear error naming
        // the file and the task.
        std::fs::write(&reports, "{\"task_id\":\"t\",\"winner\":\"both\"}\n").unwrap();
        let err = read_verdicts(&reports).unwrap_err().to_string();
        assert!(
            err.contains("records.jsonl") && err.contains("task t") && err.contains("\"both\""),
            "{err}"
        );
    }

    #[test]
    fn only_agreeing_orders_count_and_inconsistency_is_kept_apart_from_ties() {
        use Winner::*;
        assert_eq!(combine_orders(Candidate, Candidate), PairOutcome::Win);
        assert_eq!(combine_orders(Baseline, Baseline), PairOutcome::Loss);
        assert_eq!(combine_orders(Tie, Tie), PairOutcome::Tie);
        assert_eq!(
            combine_orders(Candidate, Baseline),
            PairOutcome::Inconsistent
        );
        assert_eq!(combine_orders(Tie, Candidate), PairOutcome::Inconsistent);
        // Task a: win, win, loss (⅔); b: tie (½); c: inconsistent (½), and an error.
        let r = PairwiseReport::from_outcomes([
            ("a", &PairOutcome::Win),
            ("a", &PairOutcome::Win),
            ("a", &PairOutcome::Loss),
            ("b", &PairOutcome::Tie),
            ("c", &PairOutcome::Inconsistent),
            ("c", &PairOutcome::Error),
        ]);
        assert_eq!(
            (r.wins, r.losses, r.ties, r.inconsistent, r.errors, r.n),
            (2, 1, 1, 1, 1, 5)
        );
        assert_eq!(r.swap_consistency, Some(0.8));
        // By task, not pooled: (⅔ + ½ + ½)/3, where pooling would give (2 + 1)/5.
        assert!((r.score.unwrap() - (2.0 / 3.0 + 1.0) / 3.0).abs() < 1e-12);
        assert_eq!(r.tasks, 3);
        // A bootstrap over the three tasks: within the tasks' own range, around the score.
        let ci = r.score_ci.unwrap();
        assert!(
            ci.lo >= 0.5 && ci.hi <= 2.0 / 3.0 && ci.lo <= r.score.unwrap(),
            "{ci:?}"
        );
        let md = r.render_markdown("j");
        assert!(md.contains("95% CI over 3 tasks"), "{md}");
    }
}

#[cfg(test)]
mod scripted_judges {
    use super::*;
    use crate::model::ChatMessage;
    use crate::scripted::ScriptedJudge;

    fn answer(w: &str) -> String {
        format!(r#"{{"winner":"{w}","evidence":"compared both diffs"}}"#)
    }

    /// Which side holds the marker text, read from the real rendered prompt.
    fn side_with(msgs: &[ChatMessage], marker: &str) -> Option<&'static str> {
        let user = &msgs[1].content;
        let a = user.find("# Change A")?;
        let b = user.find("# Change B")?;
        let at = user.find(marker)?;
        Some(if at > a && at < b { "A" } else { "B" })
    }

    /// One task per pair of [`pairs`].
    const TASKS: [&str; 4] = ["t0", "t1", "t2", "t3"];

    fn pairs() -> Vec<(Candidate, Candidate)> {
        (0..4)
            .map(|i| {
                (
                    Candidate::new(&format!("+baseline change {i}\n"), "t"),
                    Candidate::new(&format!("+GOOD candidate change {i}\n"), "t"),
                )
            })
            .collect()
    }

    /// Every pair of [`pairs`] judged, each order's winner checked against `orders`.
    async fn judge_pairs(judge: &ScriptedJudge, orders: (Winner, Winner)) -> Vec<PairOutcome> {
        let rubric = Rubric::default_code_quality();
        let mut outcomes = Vec::new();
        for (b, c) in pairs() {
            let j = compare_pair(judge, &rubric, "Fix it.", &b, &c)
                .await
                .unwrap();
            assert_eq!((j.first, j.second), (Some(orders.0), Some(orders.1)));
            outcomes.push(j.outcome);
        }
        outcomes
    }

    #[tokio::test]
    async fn a_judge_that_always_prefers_position_a_is_100_percent_inconsistent() {
        let judge = ScriptedJudge::deciding("scripted:first", |_| answer("A"));
        // Order 1 (baseline as A) maps to baseline; order 2 (candidate as A) to candidate.
        let outcomes = judge_pairs(&judge, (Winner::Baseline, Winner::Candidate)).await;
        let r =
            PairwiseReport::from_outcomes(outcomes.iter().enumerate().map(|(i, o)| (TASKS[i], o)));
        assert_eq!(
            (r.wins, r.losses, r.ties, r.inconsistent, r.n),
            (0, 0, 0, 4, 4)
        );
        assert_eq!(r.swap_consistency, Some(0.0));
        assert_eq!(r.score, Some(0.5));
        assert_eq!(judge.conversations().len(), 8, "each pair judged twice");
    }

    #[tokio::test]
    async fn a_consistent_judge_yields_wins_mapped_back_from_the_swapped_order() {
        let rubric = Rubric::default_code_quality();
        // Prefers whichever side holds the GOOD change, wherever it is shown.
        let judge = ScriptedJudge::deciding("scripted:consistent", |m| {
            answer(side_with(m, "GOOD").unwrap_or("tie"))
        });
        let outcomes = judge_pairs(&judge, (Winner::Candidate, Winner::Candidate)).await;
        // The swap really happened: the second prompt showed the candidate as A.
        let convs = judge.conversations();
        assert_eq!(side_with(&convs[0], "GOOD"), Some("B"));
        assert_eq!(side_with(&convs[1], "GOOD"), Some("A"));
        let r =
            PairwiseReport::from_outcomes(outcomes.iter().enumerate().map(|(i, o)| (TASKS[i], o)));
        assert_eq!((r.wins, r.losses, r.inconsistent), (4, 0, 0));
        assert_eq!((r.swap_consistency, r.score), (Some(1.0), Some(1.0)));

        // Swapping the roles turns every win into a loss.
        let mut losses = Vec::new();
        for (b, c) in pairs() {
            losses.push(
                compare_pair(&judge, &rubric, "Fix it.", &c, &b)
                    .await
                    .unwrap()
                    .outcome,
            );
        }
        let r =
            PairwiseReport::from_outcomes(losses.iter().enumerate().map(|(i, o)| (TASKS[i], o)));
        assert_eq!((r.wins, r.losses, r.score), (0, 4, Some(0.0)));
    }

    #[tokio::test]
    async fn a_real_tie_is_kept_apart_from_inconsistency_and_bad_answers_are_errors() {
        let rubric = Rubric::default_code_quality();
        let tie = ScriptedJudge::deciding("scripted:tie", |_| answer("tie"));
        let (b, c) = &pairs()[0];
        assert_eq!(
            compare_pair(&tie, &rubric, "x", b, c)
                .await
                .unwrap()
                .outcome,
            PairOutcome::Tie
        );
        let bad = ScriptedJudge::deciding("scripted:bad", |_| {
            r#"{"winner":"a","evidence":"x"}"#.to_owned()
        });
        let j = compare_pair(&bad, &rubric, "x", b, c).await.unwrap();
        assert_eq!(j.outcome, PairOutcome::Error);
        assert_eq!(j.retries, 4, "two retries in each order");
        assert!(
            j.error.as_deref().unwrap().contains("unknown variant `a`"),
            "{:?}",
            j.error
        );
    }
}
