//! Loading `agents/<name>/agent.yaml` and checking every field before anything is built:
//! all problems at once, each naming the file and the field.

use super::placeholders::{self, Placeholder};
use super::schema::{AgentSpec, InstructionVia};
use super::{AGENT_FILE, DeclaredAgent};
use crate::task::TaskIssue;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Names the harness gives its own agents; a declared agent may not take one.
const BUILT_IN: [&str; 4] = ["nab-agent", "oracle", "null", "agent"];

/// Why a declared agent cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentDeclError {
    #[error("{}", not_declared(.name, .dir, .declared))]
    NotDeclared {
        name: String,
        dir: PathBuf,
        declared: Vec<String>,
    },
    #[error("agent {name} is declared wrongly; nothing was run:\n{}", list(.issues))]
    Invalid {
        name: String,
        issues: Vec<TaskIssue>,
    },
}

fn not_declared(name: &str, dir: &Path, declared: &[String]) -> String {
    let have = if declared.is_empty() {
        format!(
            "no agent is declared there (a declared agent is a folder {}/<name>/ with an {AGENT_FILE})",
            dir.display()
        )
    } else {
        format!("the declared agents are: {}", declared.join(", "))
    };
    format!(
        "unknown agent `{name}`: it is none of nab-agent, oracle, null, wrong:<name>, command:<path>, and {} has no {name}/{AGENT_FILE}; {have} (give another folder with --agents)",
        dir.display()
    )
}

fn list(issues: &[TaskIssue]) -> String {
    issues
        .iter()
        .map(|i| format!("  {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names of the agents declared in `dir` (its sub-folders holding an agent.yaml),
/// sorted. A missing folder declares none.
pub fn declared_names(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().join(AGENT_FILE).is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect();
    names.sort();
    names
}

/// The agent `name` declared in `dir`, checked.
pub fn find_agent(dir: &Path, name: &str) -> Result<DeclaredAgent, AgentDeclError> {
    let declared = declared_names(dir);
    if !declared.iter().any(|n| n == name) {
        return Err(AgentDeclError::NotDeclared {
            name: name.to_owned(),
            dir: dir.to_owned(),
            declared,
        });
    }
    load_agent(&dir.join(name)).map_err(|issues| AgentDeclError::Invalid {
        name: name.to_owned(),
        issues,
    })
}

/// Loads one agent folder; every problem in it is returned.
pub fn load_agent(folder: &Path) -> Result<DeclaredAgent, Vec<TaskIssue>> {
    let path = folder.join(AGENT_FILE);
    let name = folder
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| vec![TaskIssue::new(&path, None, format!("cannot read it: {e}"))])?;
    let spec: AgentSpec =
        crate::task::load::parse_yaml(&path, &text).map_err(|issue| vec![issue])?;
    let mut issues: Vec<TaskIssue> = check(&name, &spec)
        .into_iter()
        .map(|(field, message)| TaskIssue::new(&path, field.as_deref(), message))
        .collect();
    if issues.is_empty() {
        Ok(DeclaredAgent {
            name,
            dir: folder.to_owned(),
            spec,
        })
    } else {
        issues.sort_by(|a, b| a.field.cmp(&b.field));
        Err(issues)
    }
}

/// Every problem of a declaration, as (field, message); `None` for the folder's name.
fn check(name: &str, spec: &AgentSpec) -> Vec<(Option<String>, String)> {
    let mut out: Vec<(Option<String>, String)> = Vec::new();
    if !agent_name(name) || BUILT_IN.contains(&name) {
        out.push((
            None,
            format!(
                "the folder name `{name}` is the agent's name: lower-case letters, digits and `-`, at most 40, starting with a letter, and none of {}",
                BUILT_IN.join(", ")
            ),
        ));
    }
    let mut bad = |field: &str, msg: String| out.push((Some(field.to_owned()), msg));
    if spec.description.trim().is_empty() || spec.description.contains('\n') {
        bad("description", "must be one non-empty line".into());
    }
    for (field, msg) in crate::task::environment::check(&spec.environment) {
        bad(&field, msg);
    }
    check_command(spec, &mut bad);
    check_env(spec, &mut bad);
    out
}

/// The command line: not empty, no NUL, known placeholders, and the instruction passed
/// the way `instruction:` says, exactly once.
fn check_command(spec: &AgentSpec, bad: &mut impl FnMut(&str, String)) {
    if spec.command.is_empty() || spec.command[0].trim().is_empty() {
        bad("command", "is empty; give the agent's command line, e.g. [/opt/nab-agent/bin/mini, --task, \"{instruction}\"]".into());
        return;
    }
    let mut uses: Vec<Placeholder> = Vec::new();
    for (i, arg) in spec.command.iter().enumerate() {
        match placeholders::scan(arg) {
            Ok(found) => uses.extend(found),
            Err(why) => bad(&format!("command[{i}]"), why),
        }
        if arg.contains('\0') {
            bad(&format!("command[{i}]"), "contains a NUL byte".into());
        }
    }
    let count = |p: Placeholder| uses.iter().filter(|u| **u == p).count();
    let (text, file) = (
        count(Placeholder::Instruction),
        count(Placeholder::InstructionFile),
    );
    let wanted = match spec.instruction {
        InstructionVia::Stdin => (text == 0 && file == 0)
            .then_some(())
            .ok_or("`stdin`: the command must not use {instruction} or {instruction_file}"),
        InstructionVia::File => (text == 0 && file == 1)
            .then_some(())
            .ok_or("`file`: the command must use {instruction_file} once, and not {instruction}"),
        InstructionVia::Argument => (text == 1 && file == 0).then_some(()).ok_or(
            "`argument`: the command must use {instruction} once, and not {instruction_file}",
        ),
    };
    if let Err(why) = wanted {
        bad("instruction", why.into());
    }
}

/// Variable names the shell would accept, none the harness sets itself, none twice.
fn check_env(spec: &AgentSpec, bad: &mut impl FnMut(&str, String)) {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let lists = [
        ("base_url_env", &spec.base_url_env),
        ("api_key_env", &spec.api_key_env),
    ];
    let names = lists
        .iter()
        .flat_map(|(field, v)| {
            v.iter()
                .enumerate()
                .map(move |(i, n)| (format!("{field}[{i}]"), n))
        })
        .chain(spec.env.keys().map(|k| (format!("env.{k}"), k)));
    for (field, name) in names {
        if !env_name(name) {
            bad(
                &field,
                format!(
                    "`{name}` is not a variable name (letters, digits and `_`, not starting with a digit)"
                ),
            );
        } else if name.starts_with("NAB_") || name == "PATH" {
            bad(
                &field,
                format!("`{name}` is set by the harness (NAB_* and PATH are its own)"),
            );
        } else if !seen.insert(name) {
            bad(
                &field,
                format!(
                    "`{name}` is set twice; a variable is either the base URL, the key or a constant"
                ),
            );
        }
    }
    for (k, v) in &spec.env {
        match placeholders::scan(v) {
            Ok(found) if found.iter().all(|p| *p == Placeholder::Model) => {}
            Ok(_) => bad(
                &format!("env.{k}"),
                "may use only {model}; the instruction is given by `instruction:`".into(),
            ),
            Err(why) => bad(&format!("env.{k}"), why),
        }
        if v.contains('\0') {
            bad(&format!("env.{k}"), "contains a NUL byte".into());
        }
    }
}

fn agent_name(s: &str) -> bool {
    s.len() <= 40
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn env_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "description: a test agent\nenvironment: {pip: [\"tomli==2.0.1\"]}\ncommand: [/opt/nab-agent/bin/x, --model, \"openai/{model}\", --task, \"{instruction}\"]\ninstruction: argument\napi: openai-chat\nbase_url_env: [OPENAI_API_BASE]\napi_key_env: [OPENAI_API_KEY]\nenv: {HOME: /tmp/home}\n";

    fn write(dir: &Path, name: &str, yaml: &str) -> PathBuf {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(AGENT_FILE), yaml).unwrap();
        folder
    }

    #[test]
    fn a_good_declaration_loads_and_an_unknown_name_lists_the_declared_ones() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "tester", GOOD);
        write(dir.path(), "other", GOOD);
        let a = find_agent(dir.path(), "tester").unwrap();
        assert_eq!(a.name, "tester");
        assert_eq!(a.spec.instruction, InstructionVia::Argument);
        let e = find_agent(dir.path(), "nope").unwrap_err().to_string();
        assert!(e.contains("the declared agents are: other, tester"), "{e}");
        assert!(e.contains("wrong:<name>"), "{e}");
        let e = find_agent(&dir.path().join("none"), "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no agent is declared there"), "{e}");
    }

    #[test]
    fn every_problem_is_named_with_its_field() {
        let dir = tempfile::tempdir().unwrap();
        let yaml = "description: \"\"\nenvironment: {pip: [aider-chat]}\ncommand: [x, \"{instruction_file}\", \"{colour}\"]\ninstruction: argument\napi: openai-chat\nbase_url_env: [NAB_X, \"1A\"]\napi_key_env: [K]\nenv: {K: v, HOME: \"{instruction}\"}\n";
        let folder = write(dir.path(), "oracle", yaml);
        let issues = load_agent(&folder).unwrap_err();
        let text: Vec<String> = issues.iter().map(|i| i.to_string()).collect();
        let has = |field: &str, what: &str| {
            assert!(
                text.iter()
                    .any(|t| t.contains(&format!("field `{field}`")) && t.contains(what)),
                "{field}: {what} not in {text:#?}"
            )
        };
        has("description", "one non-empty line");
        has("environment.pip[0]", "not pinned");
        has("command[2]", "{colour}");
        has("instruction", "must use {instruction} once");
        has("base_url_env[0]", "set by the harness");
        has("base_url_env[1]", "not a variable name");
        has("env.K", "set twice");
        has("env.HOME", "only {model}");
        assert!(
            text.iter().any(|t| t.contains("folder name `oracle`")),
            "{text:#?}"
        );
        // An unknown field is refused by name, with its line.
        let folder = write(dir.path(), "typo", &format!("{GOOD}comand: [x]\n"));
        let e = load_agent(&folder).unwrap_err()[0].to_string();
        assert!(e.contains("comand") && e.contains(":9:"), "{e}");
    }

    #[test]
    fn the_shipped_declarations_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents");
        let names = declared_names(&dir);
        assert_eq!(names, ["aider", "mini-swe-agent"]);
        for n in names {
            let a = find_agent(&dir, &n).unwrap_or_else(|e| panic!("{e}"));
            assert!(a.spec.command[0].starts_with(crate::agents::VENV), "{n}");
        }
    }
}
