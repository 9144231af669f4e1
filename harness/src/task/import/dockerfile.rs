//! A Harbor task's `environment/Dockerfile` turned into what nab can build: the Debian and
//! PyPI packages of `apt-get install`/`pip install` become `environment:`, files copied into
//! the working directory become `workspace/`, `RUN` steps that build files in the working
//! directory become workspace steps (run at import, see `workdir_build`), other `RUN` steps
//! become set-up commands, and the final `WORKDIR` is the folder mapped to `/workspace`.
//! Whatever the sandbox cannot honour (a service, a prebuilt or multi-stage image,
//! downloads, files outside the working directory) is a refusal with its reason. Parsed
//! with the `dockerfile-parser` crate.

use crate::task::{debian_name, pinned_requirement};
use dockerfile_parser::{
    Dockerfile, FromInstruction, Instruction, MiscInstruction, ShellOrExecExpr,
};
use std::path::Path;

/// Base images whose packages are Debian's (or close enough to name the same packages):
/// nab's base image stands in for them.
const STOCK_BASES: &[&str] = &["debian", "ubuntu", "python", "buildpack-deps"];

/// `ENV` names that only tune tools and are safe to drop.
const HARMLESS_ENV: &[&str] = &[
    "DEBIAN_FRONTEND",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "PIP_NO_CACHE_DIR",
    "PIP_DISABLE_PIP_VERSION_CHECK",
    "PIP_ROOT_USER_ACTION",
    "LANG",
    "LC_ALL",
    "TZ",
    "TERM",
];

/// Commands that fetch from the network outside apt and pip.
const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "git clone",
    "npm install",
    "go install",
    "cargo install",
];

#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct DockerPlan {
    pub apt: Vec<String>,
    pub pip: Vec<String>,
    pub setup: Vec<String>,
    /// (source under environment/, destination relative to the working directory).
    pub copies: Vec<(String, String)>,
    /// `RUN` steps that build files in the working directory, in order: each runs at
    /// import after the first `after_copies` entries of `copies` are in place.
    pub workdir_runs: Vec<WorkdirRun>,
    /// The final WORKDIR (the path rewritten to /workspace), when there is one.
    pub workdir: Option<String>,
    pub notes: Vec<String>,
    pub refusals: Vec<String>,
}

/// A `RUN` step that works in the working directory, run at import (see `workdir_build`).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct WorkdirRun {
    /// The step's shell text as the Dockerfile has it (apt and pip parts taken out).
    pub script: String,
    /// The folder it runs in, relative to the working directory ("" for the folder itself).
    pub cwd: String,
    /// Its line in the Dockerfile, for messages.
    pub line: usize,
    /// How many of the plan's copies come before it.
    pub after_copies: usize,
}

/// A COPY or ADD before its destination is checked: (source, absolute destination, its
/// place among the Dockerfile's instructions).
type RawCopy = (String, String, usize);

/// A `RUN` step's kept commands before they are sorted into set-up and workspace steps:
/// (place among the instructions, line, WORKDIR at the time, text).
type RawRun = (usize, usize, String, String);

pub(super) fn analyse(text: &str, env_dir: &Path) -> DockerPlan {
    let mut plan = DockerPlan::default();
    let df = match Dockerfile::parse(text) {
        Ok(d) => d,
        Err(e) => {
            plan.refusals
                .push(format!("environment/Dockerfile does not parse: {e}"));
            return plan;
        }
    };
    let mut froms = 0;
    let mut cwd = String::from("/");
    // COPY destinations are resolved against the WORKDIR of their time and checked
    // against the final one, once it is known.
    let mut raw_copies: Vec<RawCopy> = Vec::new();
    let mut raw_runs: Vec<RawRun> = Vec::new();
    for (seq, ins) in df.instructions.iter().enumerate() {
        match ins {
            Instruction::From(f) => {
                froms += 1;
                from_step(f, &mut plan);
            }
            Instruction::Run(r) => {
                let script = match &r.expr {
                    ShellOrExecExpr::Shell(s) => s.to_string(),
                    ShellOrExecExpr::Exec(a) => shlex::try_join(a.as_str_vec()).unwrap_or_default(),
                };
                if let Some(kept) = run_step(script.trim(), env_dir, &mut plan) {
                    let line = text[..r.span.start.min(text.len())].matches('\n').count() + 1;
                    raw_runs.push((seq, line, cwd.clone(), kept));
                }
            }
            Instruction::Copy(c) => {
                if c.flags.iter().any(|f| f.name.content == "from") {
                    plan.refusals
                        .push("multi-stage build (`COPY --from`)".to_owned());
                    continue;
                }
                for s in &c.sources {
                    raw_copies.push((
                        s.content.clone(),
                        absolute(&cwd, &c.destination.content, c.sources.len() > 1),
                        seq,
                    ));
                }
            }
            Instruction::Env(e) => {
                for v in &e.vars {
                    env_var(&v.key.content, &mut plan);
                }
            }
            Instruction::Cmd(c) => service_check("CMD", &c.expr, &mut plan),
            Instruction::Entrypoint(c) => service_check("ENTRYPOINT", &c.expr, &mut plan),
            Instruction::Label(_) | Instruction::Arg(_) => {}
            Instruction::Misc(m) => misc_step(m, seq, &mut cwd, &mut raw_copies, &mut plan),
        }
    }
    if froms > 1 {
        plan.refusals
            .push(format!("multi-stage build ({froms} FROM lines)"));
    }
    if froms == 0 {
        plan.refusals
            .push("environment/Dockerfile has no FROM".to_owned());
    }
    let workdir = (cwd != "/").then(|| cwd.clone());
    let copy_seqs = place_copies(raw_copies, workdir.as_deref(), &mut plan);
    plan.workdir = workdir;
    sort_runs(raw_runs, &copy_seqs, &mut plan);
    plan.apt.sort();
    plan.apt.dedup();
    plan.pip.sort();
    plan.pip.dedup();
    plan
}

/// `ENV`: only variables that tune tools may be dropped; any other is refused.
fn env_var(key: &str, plan: &mut DockerPlan) {
    if !HARMLESS_ENV.contains(&key) {
        plan.refusals.push(format!(
            "`ENV {key}`: nab's images set no environment variables for a task"
        ));
    }
}

/// Each `RUN` step's kept commands become a set-up command (built into the image) or, when
/// they work in the working directory, a workspace step run at import: a step is one when
/// it names the working directory's path, or runs inside it and names a file or folder
/// copied there before it. The workspace nab mounts would hide what an image-time step
/// wrote there; the import runs such steps and keeps what they leave. A workspace step
/// that runs in another folder than the working directory (or `/`) is refused.
fn sort_runs(raw_runs: Vec<RawRun>, copy_seqs: &[usize], plan: &mut DockerPlan) {
    for (seq, line, cwd, cmd) in raw_runs {
        let Some(w) = plan.workdir.clone() else {
            plan.setup.push(cmd);
            continue;
        };
        let after_copies = copy_seqs.iter().filter(|s| **s < seq).count();
        let inside = cwd == w || cwd.starts_with(&format!("{w}/"));
        let names_a_copy = inside
            && plan.copies[..after_copies]
                .iter()
                .filter_map(|(src, rel)| top_name(src, rel))
                .any(|n| mentions_path(&cmd, &n));
        if !mentions_path(&cmd, &w) && !names_a_copy {
            plan.setup.push(cmd);
        } else if inside || cwd == "/" {
            let cwd = cwd
                .strip_prefix(&w)
                .unwrap_or("")
                .trim_start_matches('/')
                .to_owned();
            plan.notes.push(format!(
                "`RUN {cmd}` (Dockerfile line {line}) runs at import: what it builds is in workspace/"
            ));
            plan.workdir_runs.push(WorkdirRun {
                script: cmd,
                cwd,
                line,
                after_copies,
            });
        } else {
            plan.refusals.push(format!(
                "`RUN {cmd}` (Dockerfile line {line}) works in the working directory {w} but runs in {cwd}; nab runs such steps in the working directory only"
            ));
        }
    }
}

/// The first part of where a copy lands in the working directory (`data` for `data/`,
/// `gen.py` for a file copied to the folder itself).
fn top_name(src: &str, rel: &str) -> Option<String> {
    let path = if rel.is_empty() || rel.ends_with('/') {
        format!("{rel}{}", src.trim_end_matches('/').rsplit('/').next()?)
    } else {
        rel.to_owned()
    };
    let first = path.trim_start_matches("./").split('/').next()?;
    (!first.is_empty() && first != ".").then(|| first.to_owned())
}

/// `FROM`: a stock Debian-like base is nab's base image; anything else is refused.
fn from_step(f: &FromInstruction, plan: &mut DockerPlan) {
    let name = f
        .image_parsed
        .image
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_owned();
    let stock = f.image_parsed.registry.is_none()
        && !f.image_parsed.image.contains('/')
        && STOCK_BASES.contains(&name.as_str());
    if stock {
        plan.notes.push(format!(
            "FROM {} → nab's base image (Debian bookworm)",
            f.image.content
        ));
    } else {
        plan.refusals.push(format!(
            "prebuilt image `FROM {}`: nab builds every image from Debian packages and cannot pull images",
            f.image.content
        ));
    }
}

/// The instructions the parser leaves untyped: WORKDIR moves `cwd`, ADD of plain files is
/// a copy, services and unknown instructions are refused, the rest noted or ignored.
fn misc_step(
    m: &MiscInstruction,
    seq: usize,
    cwd: &mut String,
    raw_copies: &mut Vec<RawCopy>,
    plan: &mut DockerPlan,
) {
    let args = m.arguments.to_string();
    let args = args.trim();
    match m.instruction.content.to_ascii_uppercase().as_str() {
        "WORKDIR" => *cwd = absolute(cwd, args, true).trim_end_matches('/').to_owned(),
        "ADD" => {
            let mut words = shlex::split(args).unwrap_or_default();
            words.retain(|w| !w.starts_with("--"));
            let Some(dest) = words.pop() else { return };
            for s in words {
                if s.contains("://") {
                    plan.refusals.push(format!("`ADD {s}` downloads at build time"));
                } else if [".tar", ".tgz", ".gz", ".xz", ".bz2", ".zst"].iter().any(|x| s.ends_with(x)) {
                    plan.refusals.push(format!("`ADD {s}` unpacks an archive; unpack it into the task's files instead"));
                } else {
                    raw_copies.push((s, absolute(cwd, &dest, true), seq));
                }
            }
        }
        "EXPOSE" => plan.refusals.push(format!(
            "a service (`EXPOSE {args}`): a service's state cannot be the verdict in a fresh verifier without a network"
        )),
        "HEALTHCHECK" => plan.refusals.push("a service (`HEALTHCHECK`)".to_owned()),
        "USER" => plan.notes.push(format!("USER {args} ignored: nab runs as uid 1000")),
        "VOLUME" | "SHELL" | "STOPSIGNAL" | "MAINTAINER" | "ONBUILD" => {}
        other => plan.refusals.push(format!("unknown Dockerfile instruction `{other}`")),
    }
}

/// Each copy's destination made relative to the final working directory (which becomes
/// /workspace); copies outside it, without one, or from outside environment/ are refused.
/// Returns the place among the instructions of each copy kept.
fn place_copies(
    raw_copies: Vec<RawCopy>,
    workdir: Option<&str>,
    plan: &mut DockerPlan,
) -> Vec<usize> {
    let mut seqs = Vec::new();
    for (src, dest, seq) in raw_copies {
        let rel = match workdir {
            Some(w) if dest == w || dest == format!("{w}/") => String::new(),
            Some(w) => match dest.strip_prefix(&format!("{w}/")) {
                Some(r) => r.to_owned(),
                None => {
                    plan.refusals.push(format!(
                        "`COPY {src} {dest}` puts files outside the working directory {w}; only the working directory becomes /workspace"
                    ));
                    continue;
                }
            },
            None => {
                plan.refusals.push(format!(
                    "`COPY {src} {dest}` without a WORKDIR: nothing says which folder becomes /workspace"
                ));
                continue;
            }
        };
        if src.contains("..") || src.starts_with('/') {
            plan.refusals
                .push(format!("`COPY {src}` reaches outside environment/"));
            continue;
        }
        plan.copies.push((src, rel));
        seqs.push(seq);
    }
    seqs
}

/// `dest` made absolute against `cwd`; a destination naming a folder keeps its `/`.
fn absolute(cwd: &str, dest: &str, _many: bool) -> String {
    let joined = if dest.starts_with('/') {
        dest.to_owned()
    } else if dest == "." || dest == "./" {
        format!("{}/", cwd.trim_end_matches('/'))
    } else {
        format!(
            "{}/{}",
            cwd.trim_end_matches('/'),
            dest.trim_start_matches("./")
        )
    };
    joined.replace("//", "/")
}

fn mentions_path(text: &str, path: &str) -> bool {
    let mut from = 0;
    while let Some(i) = text[from..].find(path) {
        let start = from + i;
        let end = start + path.len();
        let before_ok = start == 0
            || !text[..start].ends_with(|c: char| c.is_ascii_alphanumeric() || "_.-".contains(c));
        let after_ok = end == text.len()
            || !text[end..].starts_with(|c: char| c.is_ascii_alphanumeric() || "_.-".contains(c));
        if before_ok && after_ok {
            return true;
        }
        from = end;
    }
    false
}

/// One `RUN`: split at `&&`/`;` into commands, each sorted into apt, pip or dropped; the
/// rest, joined again, is returned (a set-up or workspace step, see `sort_runs`).
fn run_step(script: &str, env_dir: &Path, plan: &mut DockerPlan) -> Option<String> {
    let mut kept = Vec::new();
    for cmd in split_commands(script) {
        let words = shlex::split(&cmd).unwrap_or_default();
        let w: Vec<&str> = words.iter().map(String::as_str).collect();
        match w.as_slice() {
            [] => {}
            ["apt-get" | "apt", "update", ..] | ["apt-get" | "apt", "clean", ..] => {}
            ["rm", "-rf", rest @ ..]
                if rest.iter().all(|p| {
                    p.starts_with("/var/lib/apt")
                        || p.starts_with("/var/cache/apt")
                        || p.starts_with("/tmp")
                }) => {}
            ["apt-get" | "apt", "install", rest @ ..] => {
                for p in rest.iter().filter(|p| !p.starts_with('-')) {
                    let name = match p.split_once('=') {
                        Some((n, _)) => {
                            plan.notes.push(format!(
                                "apt pin `{p}` dropped: bookworm's version of {n} is used"
                            ));
                            n
                        }
                        None => p,
                    };
                    if debian_name(name) {
                        plan.apt.push(name.to_owned());
                    } else {
                        plan.refusals
                            .push(format!("`{name}` is not a Debian package name"));
                    }
                }
            }
            _ if pip_args(&w).is_some() => {
                let args = pip_args(&w).unwrap_or_default();
                pip_packages(&args, env_dir, plan);
            }
            _ => {
                if let Some(d) = DOWNLOADERS.iter().find(|d| mentions_word(&cmd, d)) {
                    plan.refusals.push(format!(
                        "`RUN {cmd}` downloads with {d} at build time; only apt-get and pip may use the network"
                    ));
                }
                kept.push(cmd);
            }
        }
    }
    (!kept.is_empty()).then(|| kept.join(" && "))
}

fn mentions_word(text: &str, word: &str) -> bool {
    text.split([';', '&', '|', '(', '`'])
        .any(|part| part.trim_start().starts_with(word))
}

/// The arguments after `install` of `pip install`, `pip3 install`, `python -m pip install`,
/// `uv pip install`.
fn pip_args<'a>(w: &[&'a str]) -> Option<Vec<&'a str>> {
    let rest = match w {
        ["pip" | "pip3", "install", rest @ ..] => rest,
        ["python" | "python3", "-m", "pip", "install", rest @ ..] => rest,
        ["uv", "pip", "install", rest @ ..] => rest,
        _ => return None,
    };
    Some(rest.to_vec())
}

fn pip_packages(args: &[&str], env_dir: &Path, plan: &mut DockerPlan) {
    let mut i = 0;
    while i < args.len() {
        let a = args[i];
        i += 1;
        if a == "-r" || a == "--requirement" {
            let Some(file) = args.get(i) else { continue };
            i += 1;
            match std::fs::read_to_string(env_dir.join(file)) {
                Ok(text) => {
                    for line in text.lines() {
                        let line = line.split('#').next().unwrap_or("").trim();
                        if !line.is_empty() {
                            add_pip(line, plan);
                        }
                    }
                }
                Err(e) => plan.refusals.push(format!(
                    "`pip install -r {file}`: cannot read environment/{file} ({e})"
                )),
            }
        } else if a.starts_with('-') {
            // Flags that take a value would swallow the next word: index and target options
            // change where packages come from or go, which nab does not carry over.
            if [
                "-i",
                "--index-url",
                "--extra-index-url",
                "-t",
                "--target",
                "-e",
                "--editable",
            ]
            .contains(&a)
            {
                plan.refusals.push(format!("`pip install {a}` is not carried over (packages come from the default index into the system)"));
                i += 1;
            }
        } else {
            add_pip(a, plan);
        }
    }
}

fn add_pip(req: &str, plan: &mut DockerPlan) {
    match pinned_requirement(req) {
        Ok(()) => plan.pip.push(req.to_owned()),
        Err(why) => plan.refusals.push(format!("pip package `{req}` {why}")),
    }
}

/// Top-level `&&` and `;` splits (quotes respected; `||` and pipes stay inside a command).
fn split_commands(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut sq, mut dq) = (false, false);
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' if !dq => sq = !sq,
            '"' if !sq => dq = !dq,
            _ => {}
        }
        let at_sep = !sq && !dq && (c == ';' || (c == '&' && chars.get(i + 1) == Some(&'&')));
        if at_sep {
            out.push(cur.trim().to_owned());
            cur.clear();
            i += if c == ';' { 1 } else { 2 };
            continue;
        }
        cur.push(c);
        i += 1;
    }
    out.push(cur.trim().to_owned());
    out.retain(|s| !s.is_empty());
    out
}

fn service_check(what: &str, expr: &ShellOrExecExpr, plan: &mut DockerPlan) {
    let text = match expr {
        ShellOrExecExpr::Shell(s) => s.to_string(),
        ShellOrExecExpr::Exec(a) => a.as_str_vec().join(" "),
    };
    let first = text.split_whitespace().next().unwrap_or("");
    let first = first.rsplit('/').next().unwrap_or(first);
    let idle = ["bash", "sh", "sleep", "tail", "true"].contains(&first);
    if !idle {
        plan.refusals.push(format!(
            "a service (`{what} {}`): nab's containers start no service, and a service's state cannot be the verdict",
            text.trim()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(text: &str) -> DockerPlan {
        analyse(text, Path::new("/nonexistent"))
    }

    #[test]
    fn packages_setup_copies_and_the_workdir() {
        let p = plan(
            "FROM python:3.12-slim-bookworm\nENV DEBIAN_FRONTEND=noninteractive\nWORKDIR /app\n\
             RUN apt-get update && apt-get install -y --no-install-recommends jq sqlite3=3.40.1-2 && rm -rf /var/lib/apt/lists/*\n\
             RUN pip install --no-cache-dir tomli==2.0.1 'attrs==23.2.0'\n\
             COPY data/ ./data/\nCOPY main.py /app/main.py\n\
             RUN mkdir -p /opt/tool && echo hi > /opt/tool/greeting\nCMD [\"bash\"]\n",
        );
        assert_eq!(p.refusals, Vec::<String>::new());
        assert_eq!(p.apt, ["jq", "sqlite3"]);
        assert_eq!(p.pip, ["attrs==23.2.0", "tomli==2.0.1"]);
        assert_eq!(
            p.setup,
            ["mkdir -p /opt/tool && echo hi > /opt/tool/greeting"]
        );
        assert_eq!(p.workdir.as_deref(), Some("/app"));
        assert_eq!(
            p.copies,
            [
                ("data/".to_owned(), "data/".to_owned()),
                ("main.py".to_owned(), "main.py".to_owned())
            ]
        );
        assert!(
            p.notes.iter().any(|n| n.contains("sqlite3=3.40.1-2")),
            "{:?}",
            p.notes
        );
    }

    #[test]
    fn each_refusal_has_its_reason() {
        for (text, why) in [
            ("FROM ghcr.io/org/prebuilt:1\n", "prebuilt image"),
            (
                "FROM debian:bookworm AS b\nFROM debian:bookworm\n",
                "multi-stage",
            ),
            (
                "FROM debian\nWORKDIR /app\nCOPY --from=b /x /app/x\n",
                "multi-stage",
            ),
            ("FROM debian\nEXPOSE 5432\n", "a service"),
            ("FROM debian\nCMD [\"postgres\"]\n", "a service"),
            (
                "FROM debian\nRUN curl -fsSL http://x/y.sh | sh\n",
                "downloads with curl",
            ),
            ("FROM debian\nRUN pip install requests\n", "is not pinned"),
            (
                "FROM debian\nWORKDIR /app\nCOPY cfg /etc/cfg\n",
                "outside the working directory",
            ),
            (
                "FROM debian\nWORKDIR /app\nWORKDIR /opt\nRUN cp x /app/data.txt\nWORKDIR /app\n",
                "(Dockerfile line 4) works in the working directory /app but runs in /opt",
            ),
            ("FROM debian\nENV SECRET_MODE=1\n", "ENV SECRET_MODE"),
            (
                "FROM debian\nWORKDIR /app\nADD http://x/a.txt /app/\n",
                "downloads at build time",
            ),
        ] {
            let p = plan(text);
            assert!(
                p.refusals.iter().any(|r| r.contains(why)),
                "{text:?}: wanted {why:?}, got {:?}",
                p.refusals
            );
        }
    }

    #[test]
    fn steps_that_build_the_working_directory_run_at_import_in_order() {
        let p = plan(
            "FROM debian:bookworm\nWORKDIR /app\nCOPY shop.sql /app/\n\
             RUN apt-get update && apt-get install -y sqlite3 && sqlite3 /app/shop.db < /app/shop.sql && rm /app/shop.sql\n\
             RUN mkdir -p /opt/tool\nCOPY gen.py ./\nCOPY data/ ./data/\nRUN python3 gen.py > out.txt\n\
             RUN useradd bob\n",
        );
        assert_eq!(p.refusals, Vec::<String>::new());
        assert_eq!(p.apt, ["sqlite3"]);
        assert_eq!(p.setup, ["mkdir -p /opt/tool", "useradd bob"]);
        assert_eq!(
            p.workdir_runs,
            [
                WorkdirRun {
                    script: "sqlite3 /app/shop.db < /app/shop.sql && rm /app/shop.sql".into(),
                    cwd: String::new(),
                    line: 4,
                    after_copies: 1,
                },
                WorkdirRun {
                    script: "python3 gen.py > out.txt".into(),
                    cwd: String::new(),
                    line: 8,
                    after_copies: 3,
                },
            ]
        );
        // A step in a folder below the working directory runs there.
        let p = plan("FROM debian\nWORKDIR /app/sub\nRUN touch /app/sub/x\nWORKDIR /app\n");
        assert_eq!(p.workdir_runs[0].cwd, "sub");
        assert_eq!(top_name("data/", "data/").as_deref(), Some("data"));
        assert_eq!(top_name("shop.sql", "").as_deref(), Some("shop.sql"));
        assert_eq!(top_name("x/gen.py", "tools/").as_deref(), Some("tools"));
    }

    #[test]
    fn commands_split_at_top_level_only() {
        assert_eq!(
            split_commands("a && b; c 'x && y' \"p;q\" || d"),
            ["a", "b", "c 'x && y' \"p;q\" || d"]
        );
        assert!(mentions_path("cd /app && ls", "/app"));
        assert!(!mentions_path("cd /apple", "/app"));
        assert!(mentions_path("echo > /app/x", "/app"));
    }
}
