//! The built-in corpus: `harness/selftest/` (cases.yaml, hostile agents, the `answer` task)
//! and the shipped tasks the runner attacks need, embedded in the binary so `nab selftest`
//! runs anywhere. [`Corpus::materialize`] writes one runnable suite and one agent script per
//! case, exactly what `nab run --tasks <dir> --agent command:<script>` would take.

use include_dir::{Dir, include_dir};
use nab_protocol::FailureReason;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

static CORPUS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/selftest");

/// Shipped tasks a case may name as `suite:<id>`: their runners are what the attacks target.
static SUITE: &[(&str, Dir<'static>)] = &[
    (
        "py-pagination-offbyone",
        include_dir!("$CARGO_MANIFEST_DIR/../tasks/py-pagination-offbyone"),
    ),
    (
        "c-int-overflow",
        include_dir!("$CARGO_MANIFEST_DIR/../tasks/c-int-overflow"),
    ),
    (
        "java-interval-boundaries",
        include_dir!("$CARGO_MANIFEST_DIR/../tasks/java-interval-boundaries"),
    ),
];

/// The suite's pinned test sets (`tasks/tests.lock`): written beside the copied tasks so
/// their verdicts are checked against the same test ids as in the suite. Entries for tasks
/// the selftest does not copy pin nothing.
static TESTS_LOCK: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tasks/tests.lock"));

/// What a case's row belongs to (issue 11's sections, the sandbox flags, controls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    Control,
    AgentFailure,
    ExpectedData,
    RunnerForgery,
    Tampering,
    Requirements,
    Gateway,
    Sandbox,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Control => "control",
            Class::AgentFailure => "agent-failure",
            Class::ExpectedData => "expected-data",
            Class::RunnerForgery => "runner-forgery",
            Class::Tampering => "tampering",
            Class::Requirements => "requirements",
            Class::Gateway => "gateway",
            Class::Sandbox => "sandbox",
        }
    }
}

/// What the harness must have seen besides the verdict.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks {
    /// Each must be among the record's `tamper_flags`.
    #[serde(default)]
    pub tamper_flags: Vec<String>,
    /// The transcript must hold a `not_allowed` refusal naming this request param.
    #[serde(default)]
    pub gateway_refused: Option<String>,
    /// verify.log must not contain this (the attack's code announces itself if it ran).
    #[serde(default)]
    pub verify_log_lacks: Option<String>,
}

/// An outcome a case may expect: a pass (controls) or a failure for one reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Passed,
    Failed(FailureReason),
}

impl Expected {
    fn parse(s: &str) -> Option<Expected> {
        if s == "passed" {
            return Some(Expected::Passed);
        }
        // FailureReason reads unknown names as `Other`: only an exact round trip counts.
        let r: FailureReason = serde_json::from_value(serde_json::Value::from(s)).ok()?;
        (r.as_str() == s && r != FailureReason::Other).then_some(Expected::Failed(r))
    }

    pub fn label(self) -> String {
        match self {
            Expected::Passed => "passed".into(),
            Expected::Failed(r) => format!("failed: {}", r.as_str()),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    class: Class,
    attack: String,
    task: String,
    agent: String,
    #[serde(default)]
    vars: BTreeMap<String, String>,
    expect: Vec<String>,
    #[serde(default)]
    checks: Checks,
}

/// One attack: a hostile agent, the task it runs on, and what counts as caught.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub class: Class,
    pub attack: String,
    /// The task's id in the materialized suite.
    pub task: String,
    /// The task as cases.yaml names it (`answer`, `suite:<id>`).
    task_source: String,
    /// The agent script with its `@NAME@` placeholders still in.
    agent_template: String,
    vars: BTreeMap<String, String>,
    pub expect: Vec<Expected>,
    pub checks: Checks,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CorpusError {
    #[error("selftest corpus cases.yaml: {0}")]
    Cases(String),
    #[error("selftest case `{case}`: {message}")]
    Case { case: String, message: String },
    #[error("writing the selftest corpus to {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The parsed corpus.
#[derive(Debug, Clone)]
pub struct Corpus {
    pub cases: Vec<Case>,
}

/// The files written for a run: the suite folder and each case's agent script.
#[derive(Debug, Clone)]
pub struct Materialized {
    pub tasks_dir: PathBuf,
    pub agents: BTreeMap<String, PathBuf>,
}

impl Corpus {
    /// The built-in corpus.
    pub fn builtin() -> Result<Corpus, CorpusError> {
        let text = CORPUS
            .get_file("cases.yaml")
            .and_then(|f| f.contents_utf8())
            .ok_or_else(|| CorpusError::Cases("missing from the binary".into()))?;
        Corpus::parse(text)
    }

    /// Parses cases.yaml and checks every case against the embedded files.
    pub fn parse(text: &str) -> Result<Corpus, CorpusError> {
        let raw: Vec<RawCase> = serde_yaml::from_str(text).map_err(|e| {
            CorpusError::Cases(match e.location() {
                Some(l) => format!("line {}: {e}", l.line()),
                None => e.to_string(),
            })
        })?;
        let mut cases = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for r in raw {
            let bad = |message: String| CorpusError::Case {
                case: r.id.clone(),
                message,
            };
            if !seen.insert(r.id.clone()) {
                return Err(bad("the id is used twice".into()));
            }
            if r.id.is_empty()
                || !r
                    .id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                return Err(bad("an id may use only a-z, 0-9 and `-`".into()));
            }
            let agent_template = CORPUS
                .get_file(Path::new("agents").join(&r.agent))
                .and_then(|f| f.contents_utf8())
                .ok_or_else(|| bad(format!("no agent agents/{}", r.agent)))?
                .to_owned();
            let task = task_source(&r.task)
                .map(|(id, _)| id.to_owned())
                .ok_or_else(|| {
                    bad(format!(
                        "no task `{}` (the corpus's own tasks, or suite:<id> for {})",
                        r.task,
                        SUITE
                            .iter()
                            .map(|(id, _)| *id)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?;
            let mut expect = Vec::new();
            for e in &r.expect {
                expect.push(Expected::parse(e).ok_or_else(|| {
                    bad(format!(
                        "expect: `{e}` is neither `passed` nor a failure reason (tests_failed, verify_timeout, ...)"
                    ))
                })?);
            }
            if expect.is_empty() {
                return Err(bad("expect: name at least one outcome".into()));
            }
            // An attack that may pass is no attack: only controls expect a pass.
            let passes = expect.contains(&Expected::Passed);
            if passes != (r.class == Class::Control) {
                return Err(bad(
                    "only class control expects `passed`, and a control expects nothing else"
                        .into(),
                ));
            }
            if passes && expect.len() > 1 {
                return Err(bad("a control expects `passed` only".into()));
            }
            cases.push(Case {
                id: r.id,
                class: r.class,
                attack: r.attack,
                task,
                task_source: r.task,
                agent_template,
                vars: r.vars,
                expect,
                checks: r.checks,
            });
        }
        Ok(Corpus { cases })
    }

    /// Keeps the cases whose id or class is among `filters` (all of them when empty);
    /// a filter that matches nothing is an error naming it.
    pub fn select(self, filters: &[String]) -> Result<Corpus, CorpusError> {
        if filters.is_empty() {
            return Ok(self);
        }
        for f in filters {
            if !self
                .cases
                .iter()
                .any(|c| &c.id == f || c.class.as_str() == f)
            {
                return Err(CorpusError::Case {
                    case: f.clone(),
                    message: "no case or class has this name (see `nab selftest --list`)".into(),
                });
            }
        }
        let cases = self
            .cases
            .into_iter()
            .filter(|c| filters.iter().any(|f| &c.id == f || c.class.as_str() == f))
            .collect();
        Ok(Corpus { cases })
    }

    /// Writes the tasks the cases use to `<dir>/tasks/` (with the suite's `tests.lock`) and
    /// one agent script per case to `<dir>/agents/<case>.sh`, with `answer_port` and each
    /// case's vars filled in. Everything is readable by uid 1000 (the sandbox user reads
    /// the tests and scripts).
    pub fn materialize(&self, dir: &Path, answer_port: u16) -> Result<Materialized, CorpusError> {
        let tasks_dir = dir.join("tasks");
        let agents_dir = dir.join("agents");
        for d in [dir, &tasks_dir, &agents_dir] {
            create_dir(d)?;
        }
        let mut written = std::collections::HashSet::new();
        for c in &self.cases {
            if written.insert(c.task.clone()) {
                let (_, source) = task_source(&c.task_source).ok_or_else(|| CorpusError::Case {
                    case: c.id.clone(),
                    message: format!("no task `{}`", c.task),
                })?;
                extract(source, &tasks_dir.join(&c.task))?;
            }
        }
        write_file(
            &tasks_dir.join(crate::task::pinned::LOCK_FILE),
            TESTS_LOCK.as_bytes(),
            0o644,
        )?;
        let mut agents = BTreeMap::new();
        for c in &self.cases {
            let mut script = c
                .agent_template
                .replace("@ANSWER_PORT@", &answer_port.to_string());
            for (k, v) in &c.vars {
                script = script.replace(&format!("@{k}@"), v);
            }
            let path = agents_dir.join(format!("{}.sh", c.id));
            write_file(&path, script.as_bytes(), 0o755)?;
            agents.insert(c.id.clone(), path);
        }
        Ok(Materialized { tasks_dir, agents })
    }
}

/// Whether `id` is a copy of a shipped task (`suite:<id>`).
pub fn is_suite_task(id: &str) -> bool {
    SUITE.iter().any(|(s, _)| *s == id)
}

/// `answer` (the corpus's own) or `suite:<id>` (a shipped task): its id and files.
fn task_source(name: &str) -> Option<(&'static str, &'static Dir<'static>)> {
    if let Some(id) = name.strip_prefix("suite:") {
        return SUITE.iter().find(|(s, _)| *s == id).map(|(s, d)| (*s, d));
    }
    let dir = CORPUS.get_dir(Path::new("tasks").join(name))?;
    let id = dir.path().file_name()?.to_str()?;
    Some((id, dir))
}

fn create_dir(path: &Path) -> Result<(), CorpusError> {
    let err = |source| CorpusError::Write {
        path: path.to_owned(),
        source,
    };
    std::fs::create_dir_all(path).map_err(err)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(err)
}

fn write_file(path: &Path, bytes: &[u8], mode: u32) -> Result<(), CorpusError> {
    let err = |source| CorpusError::Write {
        path: path.to_owned(),
        source,
    };
    std::fs::write(path, bytes).map_err(err)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(err)
}

/// Writes an embedded folder to `to` (its paths are relative to the corpus root).
fn extract(dir: &Dir<'_>, to: &Path) -> Result<(), CorpusError> {
    create_dir(to)?;
    for f in dir.files() {
        let name = f.path().file_name().unwrap_or_default();
        write_file(&to.join(name), f.contents(), 0o644)?;
    }
    for d in dir.dirs() {
        extract(d, &to.join(d.path().file_name().unwrap_or_default()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_corpus_parses_and_covers_every_class() {
        let c = Corpus::builtin().unwrap();
        for class in [
            Class::Control,
            Class::AgentFailure,
            Class::ExpectedData,
            Class::RunnerForgery,
            Class::Tampering,
            Class::Requirements,
            Class::Gateway,
            Class::Sandbox,
        ] {
            assert!(c.cases.iter().any(|x| x.class == class), "{class:?}");
        }
    }

    #[test]
    fn every_case_of_the_builtin_corpus_materializes_into_a_suite_that_loads() {
        // What `nab selftest` runs with no --case: a task the loader refuses (a folder git
        // does not keep, a step it no longer accepts) stops the whole selftest.
        let c = Corpus::builtin().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let m = c.materialize(dir.path(), 4242).unwrap();
        let tasks = crate::task::load_suite(&m.tasks_dir, &[])
            .unwrap_or_else(|e| panic!("the selftest corpus does not load: {e}"));
        let mut wanted: Vec<&str> = c.cases.iter().map(|x| x.task.as_str()).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut loaded: Vec<&str> = tasks.iter().map(|t| t.id()).collect();
        loaded.sort_unstable();
        assert_eq!(loaded, wanted);
    }

    #[test]
    fn a_case_that_expects_a_pass_must_be_a_control() {
        let yaml = "- {id: x, class: sandbox, attack: a, task: answer, agent: honest.sh, expect: [passed]}";
        let e = Corpus::parse(yaml).unwrap_err().to_string();
        assert!(e.contains("only class control expects `passed`"), "{e}");
    }

    #[test]
    fn an_unknown_outcome_or_agent_is_named() {
        let yaml = "- {id: x, class: sandbox, attack: a, task: answer, agent: honest.sh, expect: [test_failed]}";
        let e = Corpus::parse(yaml).unwrap_err().to_string();
        assert!(e.contains("`test_failed` is neither"), "{e}");
        let yaml = "- {id: x, class: sandbox, attack: a, task: answer, agent: nope.sh, expect: [tests_failed]}";
        let e = Corpus::parse(yaml).unwrap_err().to_string();
        assert!(e.contains("no agent agents/nope.sh"), "{e}");
    }

    #[test]
    fn materialize_writes_the_tasks_and_fills_in_the_agents() {
        let c = Corpus::builtin()
            .unwrap()
            .select(&["gateway-n".into(), "c-macro".into()])
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let m = c.materialize(dir.path(), 4242).unwrap();
        let script = std::fs::read_to_string(&m.agents["gateway-n"]).unwrap();
        assert!(script.contains(r#""n": 5"#) && !script.contains("@REQUEST@"));
        assert!(m.tasks_dir.join("answer/tests/check.sh").is_file());
        assert!(
            m.tasks_dir
                .join("c-int-overflow/tests/probes/imgprobe.c")
                .is_file()
        );
        let mut tasks = crate::task::load_suite(&m.tasks_dir, &[]).unwrap();
        assert_eq!(tasks.len(), 2);
        // The copied shipped task is pinned by the suite's lock; the corpus's own is not.
        let warnings = crate::task::pinned::pin_suite(&m.tasks_dir, &mut tasks).unwrap();
        let pinned = |id: &str| {
            tasks
                .iter()
                .find(|t| t.id() == id)
                .unwrap()
                .pinned_tests
                .is_some()
        };
        assert!(pinned("c-int-overflow"), "{warnings:?}");
        assert!(!pinned("answer"));
        let e = Corpus::builtin()
            .unwrap()
            .select(&["nope".into()])
            .unwrap_err();
        assert!(e.to_string().contains("`nope`"), "{e}");
    }
}
