//! The sweep file that `nab sweep` reads: agents × models × tasks × trials, and the limits of
//! each model provider. Everything is checked here, before any container or provider is
//! touched, and every problem is reported at once with the file, the field and the value.
//!
//! ```yaml
//! agents: [nab-agent, mini-swe-agent]  # as `nab run --agent` takes them
//! agents_dir: agents                   # optional: the declared agents' folder (default agents)
//! models:                              # as `nab run --model` takes them
//!   - scripted:task
//!   - openai:deepseek-chat@https://api.deepseek.com/v1
//! tasks:
//!   dir: tasks                         # relative to the folder nab runs in
//!   ids: [term-log-report, sh-csv-quoting]   # optional; default every task
//! trials: 3                            # per task and run (default 1)
//! jobs: 4                              # trials at once, over the whole sweep (default 1)
//! attempts: 3                          # per trial when the infrastructure fails (default 3)
//! aliases:                             # optional: how the leaderboard names a model
//!   "openai:deepseek-chat@https://api.deepseek.com/v1": deepseek-chat
//! providers:                           # optional, keyed by a model spec or its start
//!   "openai:deepseek-chat":
//!     concurrency: 2                   # trials of these models at once
//!     rpm: 60                          # model requests per minute, paced
//!     max_retries: 5                   # retries of a 429/5xx answer (default 8, as nab run --max-retries)
//!     api_key_env: DEEPSEEK_API_KEY    # the host variable with the key
//! ```
//!
//! Paths (tasks.dir, agents_dir, `command:` agents, cassette and trajectory paths in model specs) are
//! relative to the current folder, as on the command line.

use crate::trial::agent::AgentKind;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest sweep file read (it is a short hand-written file).
pub(super) const MAX_SWEEP_FILE_BYTES: u64 = 1 << 20;

/// The most retries a provider entry may ask for (each waits up to the gateway's backoff cap).
pub(super) const MAX_RETRIES_LIMIT: u32 = 20;

/// The sweep file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepFile {
    pub agents: Vec<String>,
    /// Where declared agents (`agents/<name>/agent.yaml`) are looked for.
    #[serde(default = "default_agents_dir")]
    pub agents_dir: PathBuf,
    #[serde(default)]
    pub models: Vec<String>,
    pub tasks: TaskSelection,
    #[serde(default = "one")]
    pub trials: u32,
    #[serde(default = "one")]
    pub jobs: u32,
    #[serde(default = "three")]
    pub attempts: u32,
    #[serde(default)]
    pub providers: BTreeMap<String, ProviderLimits>,
    /// Short names for models on the leaderboard and pages, keyed by a model spec as
    /// `models:` lists it (recorded as each run's `label` in run.json).
    #[serde(default)]
    pub aliases: BTreeMap<String, String>,
}

fn default_agents_dir() -> PathBuf {
    PathBuf::from(crate::agents::DEFAULT_DIR)
}

fn one() -> u32 {
    1
}

fn three() -> u32 {
    3
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSelection {
    pub dir: PathBuf,
    /// Empty: every task in `dir`.
    #[serde(default)]
    pub ids: Vec<String>,
}

/// The limits of the models a `providers:` key matches. The models one key matches share
/// them: one concurrency, one request pace, one cool-down after a 429.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderLimits {
    /// Trials of these models running at once (default: only `jobs` bounds them).
    pub concurrency: Option<u32>,
    /// Model requests per minute, spread evenly (default: unpaced).
    pub rpm: Option<u32>,
    /// Retries of a retryable provider failure (429, 5xx, …) per request (default: the
    /// gateway's 3).
    pub max_retries: Option<u32>,
    /// The host variable holding these models' API key (default as in `nab run`).
    pub api_key_env: Option<String>,
}

/// One problem in a sweep file: the file, the 1-based line and column when it has one,
/// the field (`models[1]`, `providers.openai:`) when there is one, and the message; shown
/// like a problem in a task.
pub type SweepIssue = crate::task::TaskIssue;

/// Every problem of a sweep file, one a line.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct SweepFileError(pub Vec<SweepIssue>);

/// A checked sweep: what [`SweepFile`] says, parsed, with its hash.
#[derive(Debug, Clone)]
pub struct Sweep {
    pub path: PathBuf,
    /// `sha256:<hex>` of the file's bytes; `--resume` refuses a file whose hash changed.
    pub hash: String,
    pub file: SweepFile,
    /// The agents, parsed, in file order.
    pub agents: Vec<AgentKind>,
}

/// `sha256:<hex>` of `bytes`.
pub(super) fn hash_bytes(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("sha256:{}", hex::encode(sha2::Sha256::digest(bytes)))
}

impl Sweep {
    /// Reads and checks the sweep file at `path`.
    pub fn load(path: &Path) -> Result<Sweep, SweepFileError> {
        let issue = |message: String| SweepFileError(vec![issue(path, None, message)]);
        let meta = std::fs::metadata(path).map_err(|e| issue(format!("cannot read: {e}")))?;
        if !meta.is_file() || meta.len() > MAX_SWEEP_FILE_BYTES {
            return Err(issue(format!(
                "not a regular file of at most {MAX_SWEEP_FILE_BYTES} bytes"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| issue(format!("cannot read: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|_| issue("not UTF-8 text".into()))?;
        Sweep::parse(path, &text)
    }

    /// Checks `text` as the sweep file `path` (named in the errors).
    pub fn parse(path: &Path, text: &str) -> Result<Sweep, SweepFileError> {
        let file = parse_yaml(path, text).map_err(|i| SweepFileError(vec![i]))?;
        let mut issues = Vec::new();
        let agents = check(path, &file, &mut issues);
        if !issues.is_empty() {
            return Err(SweepFileError(issues));
        }
        Ok(Sweep {
            path: path.to_owned(),
            hash: hash_bytes(text.as_bytes()),
            file,
            agents,
        })
    }

    /// The `providers:` key that applies to `model`: the longest key that is the model's
    /// spec or its start. `None`: the model is its own provider, with no limits but `jobs`.
    pub fn provider_key(&self, model: &str) -> Option<&str> {
        provider_key(&self.file.providers, model)
    }
}

fn provider_key<'a>(
    providers: &'a BTreeMap<String, ProviderLimits>,
    model: &str,
) -> Option<&'a str> {
    providers
        .keys()
        .filter(|k| model.starts_with(k.as_str()))
        .max_by_key(|k| k.len())
        .map(String::as_str)
}

fn issue(path: &Path, field: Option<String>, message: String) -> SweepIssue {
    SweepIssue {
        file: path.to_owned(),
        position: None,
        field,
        message,
    }
}

fn parse_yaml(path: &Path, text: &str) -> Result<SweepFile, SweepIssue> {
    let de = serde_yaml::Deserializer::from_str(text);
    serde_path_to_error::deserialize::<_, SweepFile>(de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.inner();
        let position = inner.location().map(|l| (l.line(), l.column()));
        let mut message = inner.to_string();
        // serde_yaml appends "at line L column C" and prefixes the field; both are shown apart.
        if let Some(i) = message.rfind(" at line ") {
            message.truncate(i);
        }
        if let Some((head, rest)) = message.split_once(": ")
            && field.starts_with(head)
        {
            message = rest.to_owned();
        }
        SweepIssue {
            file: path.to_owned(),
            position,
            field: (field != "." && field != "?").then_some(field),
            message,
        }
    })
}

/// Every rule the types do not express; returns the parsed agents.
fn check(path: &Path, f: &SweepFile, issues: &mut Vec<SweepIssue>) -> Vec<AgentKind> {
    let mut push = |field: String, message: String| issues.push(issue(path, Some(field), message));
    let agents = check_agents(f, &mut push);
    check_models(f, &agents, &mut push);
    for (name, value) in [
        ("trials", f.trials),
        ("jobs", f.jobs),
        ("attempts", f.attempts),
    ] {
        if value == 0 {
            push(name.into(), "is 0; it must be at least 1".into());
        }
    }
    check_tasks(f, &mut push);
    check_providers(f, &mut push);
    check_aliases(f, &mut push);
    agents
}

/// The longest alias: a name for a table cell, not a description.
const MAX_ALIAS_CHARS: usize = 40;

/// `aliases:`: each key a listed model, each name short, printable and used once.
fn check_aliases(f: &SweepFile, push: &mut impl FnMut(String, String)) {
    let mut names: BTreeMap<&str, &str> = BTreeMap::new();
    for (model, alias) in &f.aliases {
        let field = format!("aliases.{model}");
        if !f.models.contains(model) {
            push(
                field.clone(),
                format!(
                    "`{model}` is not one of the models; a key is a model spec exactly as `models` lists it"
                ),
            );
        }
        let name = alias.trim();
        if name.is_empty()
            || name.chars().count() > MAX_ALIAS_CHARS
            || name.chars().any(char::is_control)
        {
            push(
                field,
                format!(
                    "`{alias}` is not a usable name: 1 to {MAX_ALIAS_CHARS} printable characters"
                ),
            );
        } else if let Some(other) = names.insert(name, model) {
            push(
                field,
                format!("`{name}` already names `{other}`; each alias names one model"),
            );
        }
    }
}

/// `agents:`: at least one, each parsed, none twice. Returns those that parsed.
fn check_agents(f: &SweepFile, push: &mut impl FnMut(String, String)) -> Vec<AgentKind> {
    if f.agents.is_empty() {
        push(
            "agents".into(),
            "lists no agent; name at least one (nab-agent, oracle, null, command:<path>)".into(),
        );
    }
    let mut agents: Vec<AgentKind> = Vec::new();
    let mut seen: Vec<(String, usize)> = Vec::new();
    for (i, a) in f.agents.iter().enumerate() {
        match AgentKind::resolve(a, &f.agents_dir) {
            Ok(kind) => {
                let name = kind.to_string();
                if let Some((_, j)) = seen.iter().find(|(n, _)| *n == name) {
                    push(
                        format!("agents[{i}]"),
                        format!(
                            "`{a}` is listed twice (also agents[{j}]); each agent × model pair runs once"
                        ),
                    );
                } else {
                    seen.push((name, i));
                    agents.push(kind);
                }
            }
            Err(e) => push(format!("agents[{i}]"), format!("`{a}`: {e}")),
        }
    }
    agents
}

/// `models:`: each a provider spec, none twice, and at least one when nab-agent or a
/// declared agent runs.
fn check_models(f: &SweepFile, agents: &[AgentKind], push: &mut impl FnMut(String, String)) {
    for (i, m) in f.models.iter().enumerate() {
        if let Err(e) = nab_gateway::ProviderSpec::parse(m) {
            push(format!("models[{i}]"), e.to_string());
        }
        if let Some(j) = f.models[..i].iter().position(|o| o == m) {
            push(
                format!("models[{i}]"),
                format!(
                    "`{m}` is listed twice (also models[{j}]); each agent × model pair runs once"
                ),
            );
        }
    }
    if f.models.is_empty()
        && let Some(a) = agents
            .iter()
            .find(|a| matches!(a, AgentKind::NabAgent | AgentKind::Declared(_)))
    {
        push(
            "models".into(),
            format!("agent {a} needs a model and `models` lists none; add one, e.g. scripted:task"),
        );
    }
}

/// `tasks:`: a folder, and each listed id a task folder in it, none twice.
fn check_tasks(f: &SweepFile, push: &mut impl FnMut(String, String)) {
    let dir = &f.tasks.dir;
    if !dir.is_dir() {
        push(
            "tasks.dir".into(),
            format!(
                "{} is not a folder (paths are relative to the current folder)",
                dir.display()
            ),
        );
        return;
    }
    for (i, id) in f.tasks.ids.iter().enumerate() {
        let plain = !id.is_empty() && !id.contains('/') && id != "." && id != "..";
        if !plain || !dir.join(id).is_dir() {
            push(
                format!("tasks.ids[{i}]"),
                format!(
                    "no task `{id}` in {}{}",
                    dir.display(),
                    crate::task::suggest(dir, id)
                ),
            );
        } else if let Some(j) = f.tasks.ids[..i].iter().position(|o| o == id) {
            push(
                format!("tasks.ids[{i}]"),
                format!("`{id}` is listed twice (also tasks.ids[{j}])"),
            );
        }
    }
}

/// `providers:`: each key the start of some model, and limits that allow something.
fn check_providers(f: &SweepFile, push: &mut impl FnMut(String, String)) {
    for (key, limits) in &f.providers {
        let field = |name: &str| format!("providers.{key}.{name}");
        if !f.models.iter().any(|m| m.starts_with(key.as_str())) {
            push(
                format!("providers.{key}"),
                format!(
                    "`{key}` matches none of the models; a key is a model spec or its start (e.g. `openai:` for every openai: model)"
                ),
            );
        }
        if limits.concurrency == Some(0) {
            push(
                field("concurrency"),
                "is 0; it must be at least 1 (leave it out for no limit)".into(),
            );
        }
        if limits.rpm == Some(0) {
            push(
                field("rpm"),
                "is 0; it must be at least 1 (leave it out for no pacing)".into(),
            );
        }
        if let Some(n) = limits.max_retries
            && n > MAX_RETRIES_LIMIT
        {
            push(
                field("max_retries"),
                format!("is {n}; at most {MAX_RETRIES_LIMIT}"),
            );
        }
        if let Some(v) = &limits.api_key_env
            && (v.is_empty() || v.contains('='))
        {
            push(
                field("api_key_env"),
                format!("`{v}` is not a variable name"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Sweep, String> {
        Sweep::parse(Path::new("sweep.yaml"), text).map_err(|e| e.to_string())
    }

    fn suite() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for t in ["t1", "t2"] {
            std::fs::create_dir_all(d.path().join(t)).unwrap();
        }
        d
    }

    #[test]
    fn a_good_file_parses_with_its_defaults_and_hash() {
        let d = suite();
        let text = format!(
            "agents: [nab-agent, oracle]\nmodels: [scripted:task, 'openai:m@http://127.0.0.1:9/v1']\ntasks: {{dir: {}, ids: [t2]}}\nproviders:\n  'openai:': {{concurrency: 2, rpm: 30}}\n",
            d.path().display()
        );
        let s = parse(&text).unwrap();
        assert_eq!((s.file.trials, s.file.jobs, s.file.attempts), (1, 1, 3));
        assert_eq!(s.agents, [AgentKind::NabAgent, AgentKind::Oracle]);
        assert_eq!(s.hash, hash_bytes(text.as_bytes()));
        assert_eq!(
            s.provider_key("openai:m@http://127.0.0.1:9/v1"),
            Some("openai:")
        );
        assert_eq!(s.provider_key("scripted:task"), None);
    }

    #[test]
    fn the_shipped_example_is_a_valid_sweep() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(root.join("ci/sweep.example.yaml")).unwrap();
        let tasks = root.join("tasks").display().to_string();
        let text = text.replace("  dir: tasks\n", &format!("  dir: {tasks}\n"));
        let s = parse(&text).unwrap();
        assert_eq!(s.file.tasks.ids.len(), 3);
        assert_eq!(s.provider_key("scripted:task"), Some("scripted:"));
    }

    #[test]
    fn declared_agents_come_from_agents_dir_and_need_a_model() {
        let d = suite();
        let agents = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents");
        let head = format!(
            "agents_dir: {}
tasks: {{dir: {}}}
",
            agents.display(),
            d.path().display()
        );
        let s = parse(&format!(
            "{head}agents: [aider, 'agent:mini-swe-agent']
models: [scripted:task]
"
        ))
        .unwrap();
        let names: Vec<String> = s.agents.iter().map(|a| a.to_string()).collect();
        assert_eq!(names, ["agent:aider", "agent:mini-swe-agent"]);
        let e = parse(&format!(
            "{head}agents: [aider, 'agent:aider', swe]
"
        ))
        .unwrap_err();
        assert!(e.contains("agent agent:aider needs a model"), "{e}");
        assert!(e.contains("also agents[0]"), "the same agent twice: {e}");
        assert!(
            e.contains("the declared agents are: aider, mini-swe-agent"),
            "{e}"
        );
    }

    #[test]
    fn the_longest_matching_key_wins() {
        let mut p = BTreeMap::new();
        p.insert("openai:".to_owned(), ProviderLimits::default());
        p.insert("openai:gpt".to_owned(), ProviderLimits::default());
        assert_eq!(provider_key(&p, "openai:gpt-4o"), Some("openai:gpt"));
        assert_eq!(provider_key(&p, "openai:o3"), Some("openai:"));
        assert_eq!(provider_key(&p, "anthropic:x"), None);
    }

    /// Each bad file, and what its error must say (file, field, value).
    #[test]
    fn bad_files_are_refused_with_the_field_and_value() {
        let d = suite();
        let dir = d.path().display().to_string();
        let tasks = format!("tasks: {{dir: {dir}}}\n");
        let cases: Vec<(String, Vec<&str>)> = vec![
            (
                format!("agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}trails: 2\n"),
                vec!["sweep.yaml:", "unknown field `trails`"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}aliases: {{'scripted:trajectory': s}}\n"
                ),
                vec![
                    "field `aliases.scripted:trajectory`",
                    "is not one of the models",
                ],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task, 'replay:c']\n{tasks}aliases: {{'scripted:task': same, 'replay:c': same}}\n"
                ),
                vec!["`same` already names `replay:c`"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}aliases: {{'scripted:task': ' '}}\n"
                ),
                vec!["field `aliases.scripted:task`", "not a usable name"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}providers: {{'scripted:': {{burst: 3}}}}\n"
                ),
                vec!["field `providers.scripted:.burst`: unknown field `burst`"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\ntasks: {{dir: {dir}, ids: [t1, nope]}}\n"
                ),
                vec!["field `tasks.ids[1]`", "no task `nope`"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\ntasks: {{dir: {dir}, ids: [../t1]}}\n"
                ),
                vec!["field `tasks.ids[0]`", "no task `../t1`"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\ntasks: {{dir: {dir}/missing}}\n"
                ),
                vec!["field `tasks.dir`", "missing is not a folder"],
            ),
            (
                format!("agents: [nab-agent]\nmodels: ['gpt-4o']\n{tasks}"),
                vec!["field `models[0]`", "unknown provider spec \"gpt-4o\""],
            ),
            (
                format!("agents: [nab-agent]\nmodels: ['openai:@http://x']\n{tasks}"),
                vec!["field `models[0]`", "the model name is empty"],
            ),
            (
                format!("agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}trials: 0\n"),
                vec!["field `trials`", "is 0"],
            ),
            (
                format!("agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}jobs: 0\n"),
                vec!["field `jobs`", "is 0"],
            ),
            (
                format!("agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}trials: -1\n"),
                vec!["field `trials`", "-1"],
            ),
            (
                format!("agents: [nab-agent, nab-agent]\nmodels: [scripted:task]\n{tasks}"),
                vec![
                    "field `agents[1]`",
                    "`nab-agent` is listed twice (also agents[0])",
                ],
            ),
            (
                format!("agents: [nab-agent]\nmodels: [scripted:task, scripted:task]\n{tasks}"),
                vec![
                    "field `models[1]`",
                    "`scripted:task` is listed twice (also models[0])",
                ],
            ),
            (
                format!("agents: [gpt-agent]\nmodels: [scripted:task]\n{tasks}"),
                vec!["field `agents[0]`", "`gpt-agent`"],
            ),
            (
                format!("agents: [nab-agent]\n{tasks}"),
                vec!["field `models`", "needs a model"],
            ),
            (
                format!("agents: []\nmodels: [scripted:task]\n{tasks}"),
                vec!["field `agents`", "lists no agent"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}providers: {{'openai:': {{rpm: 5}}}}\n"
                ),
                vec!["field `providers.openai:`", "matches none of the models"],
            ),
            (
                format!(
                    "agents: [nab-agent]\nmodels: [scripted:task]\n{tasks}providers: {{'scripted:': {{rpm: 0, concurrency: 0, max_retries: 99}}}}\n"
                ),
                vec![
                    "field `providers.scripted:.rpm`",
                    "field `providers.scripted:.concurrency`",
                    "field `providers.scripted:.max_retries`: is 99",
                ],
            ),
            (
                "agents: [nab-agent]\nmodels: [scripted:task]\n".to_owned(),
                vec!["missing field `tasks`"],
            ),
            ("agents: [nab-agent\n".to_owned(), vec!["sweep.yaml:"]),
        ];
        for (text, wants) in cases {
            let err = parse(&text).expect_err(&text);
            for want in wants {
                assert!(err.contains(want), "{text}\n→ {err}\n(wanted {want:?})");
            }
        }
    }

    #[test]
    fn all_problems_are_reported_at_once() {
        let d = suite();
        let text = format!(
            "agents: [nab-agent]\nmodels: [bad, scripted:task]\ntasks: {{dir: {}, ids: [x]}}\ntrials: 0\n",
            d.path().display()
        );
        let err = parse(&text).unwrap_err();
        assert_eq!(err.lines().count(), 3, "{err}");
    }

    #[test]
    fn a_huge_or_strange_file_is_refused_before_it_is_read() {
        let d = tempfile::tempdir().unwrap();
        let err = Sweep::load(d.path()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        let big = d.path().join("big.yaml");
        std::fs::write(&big, vec![b'#'; MAX_SWEEP_FILE_BYTES as usize + 1]).unwrap();
        let err = Sweep::load(&big).unwrap_err().to_string();
        assert!(err.contains("big.yaml") && err.contains("at most"), "{err}");
    }
}
