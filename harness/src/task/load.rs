//! Loading and checking tasks. Nothing here touches Docker: a suite with a problem stops
//! before any container exists.

use super::Task;
use super::issue::{SuiteError, TaskIssue};
use super::schema::{
    AgentOptions, GatewayOptions, Limits, StepUser, TaskSpec, VerifierMode, VerifyStep,
};
use super::{EXPECTED_CAP, EXPECTED_DIR};
use std::path::{Path, PathBuf};

/// The sub-folders of `dir` (the suite's task ids), sorted.
fn task_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `; did you mean …?` naming the tasks of `dir` nearest to `id`; empty when none is near.
pub fn suggest(dir: &Path, id: &str) -> String {
    did_you_mean(id, &task_names(dir))
}

/// `; did you mean `py-pagination-offbyone`?` for a mistyped id: the nearest names by edit
/// distance (within a third of the id's length), or those that contain it; empty when none is
/// close.
pub(crate) fn did_you_mean(id: &str, names: &[String]) -> String {
    let near = |n: &String| {
        strsim::levenshtein(id, n) <= (id.chars().count() / 3).max(2)
            || (id.len() >= 3 && n.contains(id))
    };
    let found: Vec<String> = names
        .iter()
        .filter(|n| near(n))
        .take(3)
        .map(|n| format!("`{n}`"))
        .collect();
    if found.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", found.join(" or "))
    }
}

/// Loads `ids` from `tasks_dir` (every sub-folder when `ids` is empty) and checks them all.
/// Returns every problem found across the suite, not just the first.
pub fn load_suite(tasks_dir: &Path, ids: &[String]) -> Result<Vec<Task>, SuiteError> {
    let mut issues = Vec::new();
    let dir = match tasks_dir.canonicalize() {
        Ok(d) if d.is_dir() => d,
        _ => {
            issues.push(TaskIssue::new(
                tasks_dir,
                None,
                "the tasks folder does not exist or is not a folder; pass --tasks <DIR> with one sub-folder per task",
            ));
            return Err(SuiteError { issues });
        }
    };
    let folders: Vec<PathBuf> = if ids.is_empty() {
        let mut v: Vec<PathBuf> = match std::fs::read_dir(&dir) {
            Ok(rd) => rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect(),
            Err(e) => {
                issues.push(TaskIssue::new(
                    &dir,
                    None,
                    format!("cannot list the tasks folder: {e}"),
                ));
                Vec::new()
            }
        };
        v.retain(|p| {
            !p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'))
        });
        v.sort();
        v
    } else {
        let mut v = Vec::new();
        for id in ids {
            let p = dir.join(id);
            if p.is_dir() {
                v.push(p);
            } else {
                issues.push(TaskIssue::new(
                    &p,
                    None,
                    format!("no task `{id}` in {}{}", dir.display(), suggest(&dir, id)),
                ));
            }
        }
        v
    };
    let mut tasks = Vec::new();
    for folder in folders {
        match load_task(&folder) {
            Ok(t) => tasks.push(t),
            Err(mut e) => issues.append(&mut e),
        }
    }
    if tasks.is_empty() && issues.is_empty() {
        issues.push(TaskIssue::new(
            &dir,
            None,
            "no tasks found: the folder has no task sub-folders",
        ));
    }
    if issues.is_empty() {
        Ok(tasks)
    } else {
        Err(SuiteError { issues })
    }
}

/// Loads one task folder; every problem in it is returned.
pub fn load_task(folder: &Path) -> Result<Task, Vec<TaskIssue>> {
    let mut issues = Vec::new();
    let yaml_path = folder.join("task.yaml");
    let spec = match std::fs::read_to_string(&yaml_path) {
        Ok(text) => match parse_spec(&yaml_path, &text) {
            Ok(spec) => Some(spec),
            Err(issue) => {
                issues.push(issue);
                None
            }
        },
        Err(e) => {
            issues.push(TaskIssue::new(
                &yaml_path,
                None,
                format!("cannot read task.yaml: {e}; every task folder needs one"),
            ));
            None
        }
    };
    check_files(folder, &mut issues);
    let wrong = list_wrong(folder, &mut issues);
    if let Some(spec) = &spec {
        check_spec(folder, &yaml_path, spec, &mut issues);
    }
    match spec {
        Some(spec) if issues.is_empty() => Ok(Task {
            spec,
            dir: folder.to_owned(),
            wrong,
            pinned_tests: None,
            image: None,
        }),
        _ => Err(issues),
    }
}

fn parse_spec(path: &Path, text: &str) -> Result<TaskSpec, TaskIssue> {
    parse_yaml(path, text)
}

/// Parses a YAML file of the suite (task.yaml, an agent's agent.yaml) into `T`; the error
/// names the file, the line and the field.
pub(crate) fn parse_yaml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, TaskIssue> {
    let de = serde_yaml::Deserializer::from_str(text);
    serde_path_to_error::deserialize::<_, T>(de).map_err(|e| {
        let field = e.path().to_string();
        // serde_path_to_error says `.` (root) or `?` (unknown) when no field is involved.
        let field = if field == "?" { ".".to_owned() } else { field };
        let inner = e.inner();
        let position = inner.location().map(|l| (l.line(), l.column()));
        let mut message = inner.to_string();
        // serde_yaml appends "at line L column C"; the position is already in front.
        if let Some(i) = message.rfind(" at line ") {
            message.truncate(i);
        }
        // serde_yaml also puts the field path in front; it is already in `field`.
        if let Some(rest) = message.strip_prefix(&format!("{field}: ")) {
            message = rest.to_owned();
        }
        if position.is_some() && field == "." && !message.contains("field") {
            message = format!("YAML syntax error: {message}");
        }
        TaskIssue {
            file: path.to_owned(),
            position,
            field: (field != ".").then_some(field),
            message,
        }
    })
}

fn check_files(folder: &Path, issues: &mut Vec<TaskIssue>) {
    let instruction = folder.join("instruction.md");
    match std::fs::read_to_string(&instruction) {
        Ok(t) if t.trim().is_empty() => issues.push(TaskIssue::new(
            &instruction,
            None,
            "instruction.md is empty; it is the only thing the agent is told",
        )),
        Ok(_) => {}
        Err(e) => issues.push(TaskIssue::new(
            &instruction,
            None,
            format!("missing or unreadable ({e}); every task needs instruction.md, the only thing the agent is told"),
        )),
    }
    for (sub, why) in [
        ("workspace", "copied to /workspace for the agent"),
        (
            "tests",
            "the hidden tests, mounted at /nab/tests in the verifier",
        ),
        ("solution", "the oracle, mounted at /nab/solution"),
    ] {
        if !folder.join(sub).is_dir() {
            issues.push(TaskIssue::new(
                folder.join(sub),
                None,
                format!("missing folder `{sub}/` ({why})"),
            ));
        }
    }
}

fn list_wrong(folder: &Path, issues: &mut Vec<TaskIssue>) -> Vec<String> {
    let dir = folder.join("wrong");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !e.path().is_dir() {
            issues.push(TaskIssue::new(
                e.path(),
                None,
                "wrong/ may hold only folders, one per known-wrong solution (same layout as solution/)",
            ));
        } else if !valid_name(&name) {
            issues.push(TaskIssue::new(
                e.path(),
                None,
                "a known-wrong solution's folder name may use only a-z, 0-9, `-` and `_`",
            ));
        } else {
            names.push(name);
        }
    }
    names.sort();
    names
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

fn positive(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// Checks every field of a parsed task.yaml; each problem becomes an issue naming the field.
/// The sections run in the order of the file's fields, so the issues keep that order.
fn check_spec(folder: &Path, file: &Path, spec: &TaskSpec, issues: &mut Vec<TaskIssue>) {
    let mut bad = |field: &str, msg: String| issues.push(TaskIssue::new(file, Some(field), msg));
    check_identity(folder, spec, &mut bad);
    check_timeouts(spec, &mut bad);
    check_limits(&spec.limits, &mut bad);
    check_verify(folder, spec, &mut bad);
    if spec.solution.is_empty() || spec.solution[0].trim().is_empty() {
        bad(
            "solution",
            "is empty; give the oracle's argv, e.g. [\"bash\", \"/nab/solution/solve.sh\"]".into(),
        );
    }
    if let Some(agent) = &spec.agent {
        check_agent(folder, agent, &mut bad);
    }
    check_budgets(spec, &mut bad);
    if let Some(g) = &spec.gateway {
        check_gateway(g, &mut bad);
    }
    check_required_tool_calls(spec, &mut bad);
    check_mcp_servers(spec, folder, &mut bad);
    for (i, p) in spec.replay_normalize.iter().enumerate() {
        if let Err(e) = nab_gateway::normalize::compile(&p.pattern) {
            bad(&format!("replay_normalize[{i}].pattern"), e.to_string());
        }
    }
    if let Some(env) = &spec.environment {
        for (field, msg) in super::environment::check(env) {
            bad(&field, msg);
        }
    }
    if let Err(e) = super::Protected::new(&spec.protected) {
        bad(
            &format!("protected[{}]", e.index),
            format!(
                "`{}` is not a valid glob ({}); use e.g. `build.gradle` or `scripts/**`",
                e.glob, e.message
            ),
        );
    }
}

/// The id (equal to the folder name, a valid name), the language and the description.
fn check_identity(folder: &Path, spec: &TaskSpec, bad: &mut impl FnMut(&str, String)) {
    let folder_name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if spec.id != folder_name {
        bad(
            "id",
            format!(
                "`{}` does not match the folder name `{folder_name}`; the id must equal the folder name",
                spec.id
            ),
        );
    }
    if !valid_name(&spec.id) {
        bad(
            "id",
            format!("`{}` is not a valid id; use a-z, 0-9, `-` and `_`", spec.id),
        );
    }
    if spec.language.trim().is_empty() {
        bad(
            "language",
            "is empty; name the main language (python, java, c, shell, ...)".into(),
        );
    }
    if let Some(d) = &spec.description
        && (d.trim().is_empty() || d.contains('\n'))
    {
        bad(
            "description",
            "must be one non-empty line (it is shown in tables)".into(),
        );
    }
}

/// `timeouts:`: positive seconds, and a wall-clock cap no shorter than the agent's time.
fn check_timeouts(spec: &TaskSpec, bad: &mut impl FnMut(&str, String)) {
    for (name, v) in [
        ("timeouts.agent_s", spec.timeouts.agent_s),
        ("timeouts.verify_s", spec.timeouts.verify_s),
    ] {
        if !positive(v) {
            bad(
                name,
                format!("is {v}; a timeout must be a number of seconds greater than 0"),
            );
        }
    }
    if let Some(w) = spec.timeouts.agent_wall_s
        && !(positive(w) && w >= spec.timeouts.agent_s)
    {
        bad(
            "timeouts.agent_wall_s",
            format!(
                "is {w}; the wall-clock cap of the agent phase must be at least timeouts.agent_s ({})",
                spec.timeouts.agent_s
            ),
        );
    }
}

/// `limits:`: each container limit within the range the sandbox can enforce.
fn check_limits(l: &Limits, bad: &mut impl FnMut(&str, String)) {
    for (field, value, ok, allowed) in [
        (
            "limits.cpus",
            l.cpus.to_string(),
            positive(l.cpus) && l.cpus <= 64.0,
            "more than 0 and at most 64",
        ),
        (
            "limits.memory_mb",
            l.memory_mb.to_string(),
            l.memory_mb >= 64,
            "at least 64 (MiB)",
        ),
        (
            "limits.disk_mb",
            l.disk_mb.to_string(),
            (16..=1024 * 1024).contains(&l.disk_mb),
            "at least 16 and at most 1048576 (MiB)",
        ),
        (
            "limits.pids",
            l.pids.to_string(),
            l.pids >= 16,
            "at least 16",
        ),
    ] {
        if !ok {
            bad(field, format!("is {value}; allowed: {allowed}"));
        }
    }
}

/// `verify:`: at least one step, each well formed, and at least one the code under test
/// cannot decide.
fn check_verify(folder: &Path, spec: &TaskSpec, bad: &mut impl FnMut(&str, String)) {
    if spec.verify.is_empty() {
        bad(
            "verify",
            "is empty; give at least one step `{argv: [...], timeout_s: N}`".into(),
        );
    }
    for (i, step) in spec.verify.iter().enumerate() {
        check_step(folder, spec, i, step, bad);
    }
    // A verdict must rest on something the code under test cannot say for itself: a step
    // of the verifier user, or a comparison on the host.
    let trusted = spec.verify.iter().any(|s| match s {
        VerifyStep::Command(c) => c.user == StepUser::Verifier,
        VerifyStep::ExpectFile(_) | VerifyStep::ExpectStdout(_) => true,
    });
    if spec.verifier == VerifierMode::Isolated && !spec.verify.is_empty() && !trusted {
        bad(
            "verify",
            "has only `user: sandbox` commands, whose exit status the code under test decides; add a step the verifier runs (the hidden tests) or a host-side check (`expect_stdout`, `expect_file`)".into(),
        );
    }
}

/// `agent:`: a positive context window (required for compaction), a positive step cap and
/// an MCP config that is a file in fixtures/.
fn check_agent(folder: &Path, agent: &AgentOptions, bad: &mut impl FnMut(&str, String)) {
    if agent.context_window == Some(0) {
        bad(
            "agent.context_window",
            "is 0; give a number of tokens greater than 0".into(),
        );
    }
    if let Some(tier) = agent.requires_compaction
        && agent.context_window.is_none()
    {
        bad(
            "agent.requires_compaction",
            format!(
                "is `{}` but `agent.context_window` is not set; give the window (tokens) the agent must compact to, e.g. `agent: {{context_window: 16000}}`",
                tier.as_str()
            ),
        );
    }
    if agent.max_steps == Some(0) {
        bad("agent.max_steps", "is 0; give at least 1".into());
    }
    if let Some(cfg) = &agent.mcp_config {
        let p = folder.join("fixtures").join(cfg);
        if cfg.contains("..") || cfg.starts_with('/') || !p.is_file() {
            bad(
                "agent.mcp_config",
                format!(
                    "`{cfg}` must name a file in fixtures/ (it reaches the agent as /nab/task/{cfg})"
                ),
            );
        }
    }
}

/// `budgets:`: no budget of 0, and a positive number of dollars.
fn check_budgets(spec: &TaskSpec, bad: &mut impl FnMut(&str, String)) {
    if let Some(b) = &spec.budgets
        && (b.llm_calls == Some(0) || b.tokens == Some(0))
    {
        bad(
            "budgets",
            "a budget of 0 allows nothing; leave it out or give a positive number".into(),
        );
    }
    if let Some(usd) = spec.budgets.as_ref().and_then(|b| b.usd)
        && !(usd.is_finite() && usd > 0.0)
    {
        bad(
            "budgets.usd",
            format!("is {usd}; give a positive number of US dollars, or leave it out"),
        );
    }
}

/// `gateway:`: sizes, connections and timeouts within the ranges the gateway accepts.
fn check_gateway(g: &GatewayOptions, bad: &mut impl FnMut(&str, String)) {
    if let Some(mb) = g.max_request_mb
        && !(mb.is_finite() && (0.0625..=256.0).contains(&mb))
    {
        bad(
            "gateway.max_request_mb",
            format!("is {mb}; allowed: from 0.0625 (64 KiB) to 256 (MiB)"),
        );
    }
    if let Some(n) = g.max_connections
        && !(1..=256).contains(&n)
    {
        bad(
            "gateway.max_connections",
            format!("is {n}; allowed: from 1 to 256"),
        );
    }
    for (name, v) in [
        ("gateway.transcript_line_mb", g.transcript_line_mb),
        ("gateway.transcript_file_mb", g.transcript_file_mb),
        ("gateway.max_answer_mb", g.max_answer_mb),
    ] {
        if let Some(mb) = v
            && !(mb.is_finite() && (0.0625..=1024.0).contains(&mb))
        {
            bad(
                name,
                format!("is {mb}; allowed: from 0.0625 (64 KiB) to 1024 (MiB)"),
            );
        }
    }
    for (name, v) in [
        ("gateway.header_timeout_s", g.header_timeout_s),
        ("gateway.read_timeout_s", g.read_timeout_s),
    ] {
        if let Some(v) = v
            && !(positive(v) && v <= 3600.0)
        {
            bad(
                name,
                format!("is {v}; allowed: more than 0 and at most 3600 (seconds)"),
            );
        }
    }
}

/// `required_tool_calls:`: each names a tool of one of the task's MCP servers, at least once.
fn check_required_tool_calls(spec: &TaskSpec, bad: &mut impl FnMut(&str, String)) {
    for (i, t) in spec.required_tool_calls.iter().enumerate() {
        if t.tool.trim().is_empty() {
            bad(
                &format!("required_tool_calls[{i}]"),
                "is empty; name a tool, e.g. mcp__tracker__get_ticket".into(),
            );
        }
        if t.at_least == 0 {
            bad(
                &format!("required_tool_calls[{i}].at_least"),
                "is 0; give at least 1 (or leave the requirement out)".into(),
            );
        }
        // Required calls are checked in the record of what the task's MCP servers served.
        let server = t
            .tool
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
            .map(|(server, _)| server);
        if !t.tool.trim().is_empty() && !server.is_some_and(|s| spec.mcp_servers.contains_key(s)) {
            bad(
                &format!("required_tool_calls[{i}]"),
                format!(
                    "`{}` is not a tool of this task's MCP servers; a required call is checked in what the servers served, so name it `mcp__<server>__<tool>` with a server of `mcp_servers:` ({})",
                    t.tool,
                    if spec.mcp_servers.is_empty() {
                        "this task has none".to_owned()
                    } else {
                        spec.mcp_servers
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                ),
            );
        }
    }
}

/// One `verify[i]` entry: argv and timeouts for commands; for host-side checks, a plain
/// workspace path and an expected file that stays on the host.
fn check_step(
    folder: &Path,
    spec: &TaskSpec,
    i: usize,
    step: &VerifyStep,
    bad: &mut impl FnMut(&str, String),
) {
    let mut argv_and_timeout = |field: &str, argv: &[String], timeout_s: f64| {
        if argv.is_empty() || argv[0].trim().is_empty() {
            bad(&format!("{field}.argv"), "is empty; give the program and its arguments as a list, e.g. [\"python3\", \"-m\", \"pytest\"]".into());
        }
        if !positive(timeout_s) {
            bad(
                &format!("{field}.timeout_s"),
                format!("is {timeout_s}; a timeout must be a number of seconds greater than 0"),
            );
        } else if positive(spec.timeouts.verify_s) && timeout_s > spec.timeouts.verify_s {
            bad(
                &format!("{field}.timeout_s"),
                format!(
                    "is {timeout_s} but timeouts.verify_s is {}; a step may not outlast the whole verification",
                    spec.timeouts.verify_s
                ),
            );
        }
    };
    match step {
        VerifyStep::Command(c) => {
            argv_and_timeout(&format!("verify[{i}]"), &c.argv, c.timeout_s);
            if let Some(j) = &c.junit
                && (!j.starts_with("/nab/verify/")
                    || j.contains("/../")
                    || j.len() <= "/nab/verify/".len())
            {
                bad(
                    &format!("verify[{i}].junit"),
                    format!(
                        "`{j}` must be a file under /nab/verify/ (the verifier's own scratch folder the agent never had)"
                    ),
                );
            }
            if c.junit.is_some()
                && c.user == StepUser::Sandbox
                && spec.verifier == VerifierMode::Isolated
            {
                bad(
                    &format!("verify[{i}].user"),
                    "is `sandbox`, but a report written by the sandbox user is within reach of the code under test; run the tests as the verifier (drop `user`) and reach the code through the broker".into(),
                );
            }
        }
        VerifyStep::ExpectFile(f) => {
            let field = format!("verify[{i}].expect_file");
            if let Err(why) = plain_relative(&f.path) {
                bad(
                    &format!("{field}.path"),
                    format!(
                        "`{}` {why}; give a path relative to /workspace, e.g. report/summary.csv",
                        f.path
                    ),
                );
            }
            check_expected(folder, &format!("{field}.equals"), &f.equals, bad);
        }
        VerifyStep::ExpectStdout(s) => {
            let field = format!("verify[{i}].expect_stdout");
            argv_and_timeout(&field, &s.argv, s.timeout_s);
            check_expected(folder, &format!("{field}.equals"), &s.equals, bad);
        }
    }
}

/// `Ok` for a path of plain names (`a/b.csv`): not absolute, no `.`, `..` or empty part.
fn plain_relative(p: &str) -> Result<(), &'static str> {
    if p.is_empty() {
        return Err("is empty");
    }
    if p.starts_with('/') {
        return Err("is absolute");
    }
    if p.contains('\0') {
        return Err("contains a NUL byte");
    }
    if p.split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return Err("has an empty, `.` or `..` part");
    }
    Ok(())
}

/// An `equals:` file: under `expected/`, a regular file (not a link: the folder is the
/// suite's, but what a link points at is not), at most [`EXPECTED_CAP`] bytes.
fn check_expected(folder: &Path, field: &str, rel: &str, bad: &mut impl FnMut(&str, String)) {
    let why = match plain_relative(rel) {
        Err(why) => Some(why.to_owned()),
        Ok(()) if rel.split('/').next() != Some(EXPECTED_DIR) || !rel.contains('/') => {
            Some(format!(
                "is not under `{EXPECTED_DIR}/`, the task folder's only folder that never enters a container"
            ))
        }
        Ok(()) => {
            // Every part of the path is checked: a linked folder could lead anywhere.
            let mut p = folder.to_owned();
            let mut why = None;
            for part in rel.split('/') {
                p.push(part);
                match std::fs::symlink_metadata(&p) {
                    Ok(m) if m.file_type().is_symlink() => {
                        why = Some("is or passes through a symbolic link".to_owned());
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        why = Some(format!("cannot be read ({e})"));
                        break;
                    }
                }
            }
            why.or_else(|| match std::fs::symlink_metadata(&p) {
                Ok(m) if !m.is_file() => Some("is not a regular file".into()),
                Ok(m) if m.len() > EXPECTED_CAP => Some(format!(
                    "is {} bytes; the largest expected file is {EXPECTED_CAP} bytes",
                    m.len()
                )),
                _ => None,
            })
        }
    };
    if let Some(why) = why {
        bad(
            field,
            format!(
                "`{rel}` {why}; name a file in the task's `{EXPECTED_DIR}/` folder, e.g. {EXPECTED_DIR}/summary.csv"
            ),
        );
    }
}

/// `mcp_servers:`: valid names, a command line, the `mcp/` folder beside task.yaml, and not
/// mixed with `agent.mcp_config` (one way to give the agent its servers).
fn check_mcp_servers(spec: &TaskSpec, folder: &Path, bad: &mut impl FnMut(&str, String)) {
    if spec.mcp_servers.is_empty() {
        return;
    }
    if spec.agent.as_ref().is_some_and(|a| a.mcp_config.is_some()) {
        bad(
            "agent.mcp_config",
            "is given with mcp_servers; give one of them (mcp_servers keeps the servers' data out of the agent's container)".into(),
        );
    }
    if !folder.join(super::MCP_DIR).is_dir() {
        bad(
            "mcp_servers",
            format!(
                "needs the folder `{}/` beside task.yaml (it is mounted at /nab/mcp in the servers' sidecar)",
                super::MCP_DIR
            ),
        );
    }
    for (name, server) in &spec.mcp_servers {
        let valid = !name.is_empty()
            && name.len() <= 32
            && !name.contains("__")
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            bad(
                &format!("mcp_servers.{name}"),
                "the name must be 1-32 characters of [A-Za-z0-9_-] without `__`".into(),
            );
        }
        if server.argv.first().is_none_or(|c| c.trim().is_empty()) {
            bad(
                &format!("mcp_servers.{name}.argv"),
                "is empty; give the server's command line, e.g. [python3, /nab/mcp/server.py]"
                    .into(),
            );
        }
        for (i, e) in server.env.iter().enumerate() {
            if e.split_once('=').is_none_or(|(k, _)| k.is_empty()) {
                bad(
                    &format!("mcp_servers.{name}.env[{i}]"),
                    format!("`{e}` must be NAME=value"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn a_mistyped_id_gets_the_nearest_names_and_a_far_one_gets_none() {
        let names: Vec<String> = [
            "py-pagination-offbyone",
            "loc-py-cache-key",
            "term-log-report",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            did_you_mean("py-pagination-offbyon", &names),
            "; did you mean `py-pagination-offbyone`?"
        );
        assert_eq!(
            did_you_mean("log-report", &names),
            "; did you mean `term-log-report`?"
        );
        assert_eq!(did_you_mean("rs-kvstore-ttl", &names), "");
    }
}
