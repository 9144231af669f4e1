//! `nab selftest`: a built-in corpus of hostile agents (issue 11 §6), one trial each,
//! through the same code as `nab run` — the corpus is written out as a suite and run with
//! [`crate::run::run_jobs`] on real Docker, each trial with its own gateway playing the
//! task's scripted model and its own fresh verifier. The records are then judged: an
//! attack that passed, or turned its failure into an infrastructure error, fooled the
//! harness.
//!
//! - [`corpus`]: the embedded cases, agents and tasks, and writing them out.
//! - [`outcome`]: what was observed, the verdict per case, the table.
//! - `answer_server`: the server on the host the network attack reaches for.

pub(crate) mod answer_server;
pub mod corpus;
pub mod outcome;

use crate::env::sandbox::SandboxBackend;
use crate::run::{Job, RunConfig, run_jobs};
use crate::task::Task;
use crate::trial::agent::AgentKind;
use corpus::{Corpus, Materialized};
use outcome::{Observed, Row, judge};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The model every case's gateway plays: each task's `trajectory.yaml`.
const MODEL: &str = "scripted:task";

/// How a selftest run is set up.
pub struct Options {
    pub backend: Arc<dyn SandboxBackend>,
    pub image: String,
    /// The engine that builds the images of corpus tasks with an `environment:` (the
    /// language targets); `None` when the caller built them.
    pub task_images: Option<crate::env::sandbox::Engine>,
    /// The run folder: `corpus/` (the suite and agents as run), `results.jsonl`, `trials/`.
    pub out: PathBuf,
    pub run_id: String,
    pub jobs: usize,
    pub progress: Arc<dyn crate::run::Reporter>,
}

/// Every row, judged.
pub struct Report {
    pub rows: Vec<Row>,
    pub interrupted: bool,
    /// Where each case's logs are: `<out>/trials/`.
    pub trials_dir: PathBuf,
}

impl Report {
    /// Rows that were not caught (fooled, unexpected): `nab selftest` exits 1 unless 0.
    pub fn not_caught(&self) -> usize {
        self.rows.iter().filter(|r| !r.verdict.caught()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::TrialStatus;

    #[test]
    fn one_fooled_row_makes_the_report_not_caught() {
        let corpus = Corpus::builtin().unwrap();
        let row = |id: &str, status: TrialStatus| {
            let case = corpus.cases.iter().find(|c| c.id == id).unwrap().clone();
            let observed = Observed {
                status: Some(status),
                failure: (status == TrialStatus::Failed)
                    .then_some(nab_protocol::FailureReason::TestsFailed),
                ..Default::default()
            };
            let verdict = judge(&case, &observed);
            Row {
                case,
                observed,
                verdict,
            }
        };
        let mut report = Report {
            rows: vec![
                row("control-honest", TrialStatus::Passed),
                row("sandbox-uid", TrialStatus::Failed),
            ],
            interrupted: false,
            trials_dir: PathBuf::from(nab_protocol::TRIALS_DIR),
        };
        assert_eq!(report.not_caught(), 0);
        // The same attack, had it passed: the harness was fooled.
        report
            .rows
            .push(row("sandbox-network", TrialStatus::Passed));
        assert_eq!(report.not_caught(), 1);
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SelftestError {
    #[error(transparent)]
    Corpus(#[from] corpus::CorpusError),
    #[error("the selftest corpus's tasks do not load: {0}")]
    Suite(String),
    #[error("the answer server for the network attack: {0}")]
    Server(std::io::Error),
    #[error(transparent)]
    Run(#[from] crate::run::RunError),
    #[error(transparent)]
    Locate(#[from] crate::trial::model::LocateError),
}

/// Runs `corpus`'s cases and judges each.
pub async fn run(
    corpus: &Corpus,
    opts: Options,
    cancel: CancellationToken,
) -> Result<Report, SelftestError> {
    let server = answer_server::AnswerServer::start()
        .await
        .map_err(SelftestError::Server)?;
    let files = corpus.materialize(&opts.out.join("corpus"), server.port())?;
    let tasks = load_tasks(corpus, &files, &opts).await?;
    let all: Vec<Arc<Task>> = tasks.values().cloned().collect();
    // Every case gets a gateway and /nab/out, as a `command:` agent of a run with a model.
    let mut model = crate::trial::model::ModelSetup::new(MODEL, None, &all).map_err(|errors| {
        SelftestError::Suite(
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
        )
    })?;
    // The cases are `command:` agents: they get the gateway on the loopback too.
    model.relay = Some(crate::trial::model::locate_binary("nab-relay")?);
    let (jobs, agents) = case_jobs(corpus, &files, &tasks)?;
    let cfg = RunConfig {
        engines: crate::run::EnginePool::single(opts.backend, opts.jobs),
        image: opts.image,
        out_dir: opts.out.clone(),
        run_id: opts.run_id,
        jobs: opts.jobs,
        // One retry for a hiccup of the engine; an attack that causes an error causes it
        // again, and is reported.
        max_attempts: 2,
        resume: false,
        progress: opts.progress,
        model: Some(Arc::new(model)),
        judge: None,
        images: crate::run::TaskImages::present(),
    };
    let report = run_jobs(cfg, jobs, cancel).await?;
    drop(server);
    let trials_dir = opts.out.join(nab_protocol::TRIALS_DIR);
    let rows = corpus
        .cases
        .iter()
        .zip(&agents)
        .map(|(case, agent)| {
            let record = report
                .records
                .iter()
                .find(|r| r.task_id == case.task && &r.agent == agent);
            let observed = Observed::collect(record, &trials_dir.join(&case.task).join(&case.id));
            let verdict = judge(case, &observed);
            Row {
                case: case.clone(),
                observed,
                verdict,
            }
        })
        .collect();
    Ok(Report {
        rows,
        interrupted: report.interrupted,
        trials_dir,
    })
}

/// The written-out corpus loaded as a suite, each copied shipped task pinned as `nab run`
/// pins it, and (when asked) the images of the tasks the cases use built. By id.
async fn load_tasks(
    corpus: &Corpus,
    files: &Materialized,
    opts: &Options,
) -> Result<HashMap<String, Arc<Task>>, SelftestError> {
    let mut loaded = crate::task::load_suite(&files.tasks_dir, &[])
        .map_err(|e| SelftestError::Suite(e.to_string()))?;
    // As `nab run` does: each copied shipped task checked against its pinned test set.
    // The corpus's own tasks have no JUnit report, so nothing to pin.
    let warnings = crate::task::pinned::pin_suite(&files.tasks_dir, &mut loaded)
        .map_err(|e| SelftestError::Suite(e.to_string()))?;
    for t in &loaded {
        if corpus::is_suite_task(t.id())
            && t.pinned_tests.is_none()
            && let Some(w) = warnings.iter().find(|w| w.contains(t.id()))
        {
            eprintln!("warning: {w}");
        }
    }
    let mut loaded: Vec<Arc<Task>> = loaded.into_iter().map(Arc::new).collect();
    if let Some(docker) = &opts.task_images {
        let used: std::collections::HashSet<&str> =
            corpus.cases.iter().map(|c| c.task.as_str()).collect();
        loaded.retain(|t| used.contains(t.id()));
        let quiet = indicatif::ProgressBar::hidden();
        crate::env::image::ensure_suite_images(
            docker,
            &opts.image,
            &mut loaded,
            false,
            &quiet,
            |i, n, img| {
                eprintln!(
                    "building task image {i}/{n} {} for {} ...",
                    img.recipe.tag(),
                    img.tasks.join(", ")
                );
            },
        )
        .await
        .map_err(|e| SelftestError::Suite(e.to_string()))?;
    }
    Ok(loaded.into_iter().map(|t| (t.id().to_owned(), t)).collect())
}

/// One job per case: its task, run by its hostile script as a `command:` agent. Returns
/// the jobs and each case's agent name (how its record is found).
fn case_jobs(
    corpus: &Corpus,
    files: &Materialized,
    tasks: &HashMap<String, Arc<Task>>,
) -> Result<(Vec<Job>, Vec<String>), SelftestError> {
    let mut jobs = Vec::new();
    let mut agents = Vec::new();
    for case in &corpus.cases {
        let task = tasks
            .get(&case.task)
            .ok_or_else(|| SelftestError::Suite(format!("no task {}", case.task)))?;
        let script = &files.agents[&case.id];
        let agent: AgentKind = format!("command:{}", script.display()).parse().map_err(
            |e: crate::trial::agent::AgentParseError| SelftestError::Suite(e.to_string()),
        )?;
        agents.push(agent.to_string());
        jobs.push(Job {
            task: task.clone(),
            agent,
            trial: 0,
            dir_name: case.id.clone(),
            stop_at_first_failure: false,
        });
    }
    Ok((jobs, agents))
}
