//! One Harbor task folder → one nab task folder.
//!
//! Rules:
//! - `environment/Dockerfile`: `apt-get install`/`pip install` → `environment:` (pins
//!   required for pip); files copied into the working directory → `workspace/`; `RUN`
//!   steps that build files there run at import, in order with those copies, in a
//!   locked-down container of the task's image, and what they leave is `workspace/`
//!   (`workdir_build`); other `RUN` steps → set-up commands; the final `WORKDIR` is
//!   rewritten to `/workspace` in the instruction, tests, solution, workspace text files and
//!   workspace steps (and `/tests/` → `/nab/tests/`, `/solution/` → `/nab/solution/`).
//! - The converted task says `verifier: shared`: Harbor's tests read and run the code under
//!   test in their own process, so they run beside it as the sandbox user, and each trial's
//!   record says the verdict was within that code's reach (`verdict_reachable`).
//! - `tests/test.sh` is not run: its pytest run becomes one verify step writing JUnit to
//!   `/nab/verify` (no network, nothing downloaded); test dependencies it installs move to
//!   build time. `tests/test_*.py` and the other test files become the hidden tests.
//! - `solution/solve.sh` becomes the oracle. `task.toml`'s timeouts and limits carry over.
//! - Refused, each with a reason: network at run time, reward files, services, GPUs,
//!   compose files, prebuilt images (and what else the Dockerfile rules above refuse).
//!
//! A task is written to a temporary folder beside its destination, loaded back with nab's
//! own checks, and only then renamed into place, so a refusal leaves nothing behind.

use super::dockerfile;
use super::harbor_toml;
use super::scripts;
use super::workdir_build::{Builder, Job, Step};
use super::{Outcome, Row};
use crate::task::Environment;
use std::path::{Path, PathBuf};

const JUNIT: &str = "/nab/verify/junit.xml";

pub async fn convert_one(folder: &Path, out: &Path, builder: &Builder) -> Row {
    let source = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = task_id(&source);
    let outcome = match plan(folder, &id, out) {
        Err(reasons) => Outcome::Refused { reasons },
        Ok(p) => match write(folder, out, &id, &p, builder).await {
            Ok(()) => Outcome::Converted { notes: p.notes },
            Err(reasons) => Outcome::Refused { reasons },
        },
    };
    Row {
        source,
        id,
        outcome,
    }
}

/// Lower-case letters, digits, `-` and `_`; anything else becomes `-`.
fn task_id(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if s.is_empty() { "imported".into() } else { s }
}

struct Plan {
    toml: harbor_toml::HarborToml,
    docker: dockerfile::DockerPlan,
    apt: Vec<String>,
    pip: Vec<String>,
    notes: Vec<String>,
}

fn plan(folder: &Path, id: &str, out: &Path) -> Result<Plan, Vec<String>> {
    let mut refusals = Vec::new();
    let mut notes = Vec::new();
    if out.join(id).exists() {
        return Err(vec![format!(
            "{} already exists; nab import never overwrites a task",
            out.join(id).display()
        )]);
    }
    refuse_symlinks(folder, &mut refusals);
    let toml_text = read_required(folder, "task.toml", &mut refusals);
    let toml = toml_text
        .as_deref()
        .map(harbor_toml::parse)
        .transpose()
        .unwrap_or_else(|e| {
            refusals.push(format!("task.toml: {e}"));
            None
        });
    if let Some(t) = &toml {
        refuse_toml(t, &mut refusals);
    }
    let env_dir = folder.join("environment");
    for compose in [
        "docker-compose.yaml",
        "docker-compose.yml",
        "compose.yaml",
        "compose.yml",
    ] {
        if env_dir.join(compose).exists() {
            refusals.push(format!(
                "compose file (environment/{compose}): nab runs one container per phase, no sidecar services"
            ));
        }
    }
    let docker = match std::fs::read_to_string(env_dir.join("Dockerfile")) {
        Ok(text) => dockerfile::analyse(&text, &env_dir),
        Err(_) if toml.as_ref().is_some_and(|t| t.docker_image.is_some()) => Default::default(),
        Err(e) => {
            refusals.push(format!("environment/Dockerfile: cannot read ({e})"));
            Default::default()
        }
    };
    refusals.extend(docker.refusals.iter().cloned());
    notes.extend(docker.notes.iter().cloned());
    let _ = read_required(folder, "instruction.md", &mut refusals);
    if let Some(text) = read_required(folder, "solution/solve.sh", &mut refusals) {
        refusals.extend(scripts::solve_script(&text));
    }
    let script =
        read_required(folder, "tests/test.sh", &mut refusals).map(|t| scripts::test_script(&t));
    check_test_files(folder, &mut refusals);
    let (mut apt, mut pip) = (docker.apt.clone(), docker.pip.clone());
    if let Some(s) = &script {
        refusals.extend(s.refusals.iter().cloned());
        notes.extend(s.notes.iter().cloned());
        apt.extend(s.apt.iter().cloned());
        pip.extend(s.pip.iter().cloned());
    }
    apt.sort();
    apt.dedup();
    pip.sort();
    pip.dedup();
    match toml {
        Some(toml) if refusals.is_empty() => Ok(Plan {
            toml,
            docker,
            apt,
            pip,
            notes,
        }),
        _ => {
            refusals.dedup();
            Err(refusals)
        }
    }
}

/// An imported task holds only plain files: every symbolic link in the folder is refused.
fn refuse_symlinks(folder: &Path, refusals: &mut Vec<String>) {
    for e in walkdir::WalkDir::new(folder)
        .follow_links(false)
        .into_iter()
        .flatten()
    {
        if e.path_is_symlink() {
            refusals.push(format!(
                "{} is a symbolic link; an imported task holds only plain files",
                e.path().strip_prefix(folder).unwrap_or(e.path()).display()
            ));
        }
    }
}

/// A file every Harbor task has; `None` (and a refusal) when it cannot be read.
fn read_required(folder: &Path, rel: &str, refusals: &mut Vec<String>) -> Option<String> {
    match std::fs::read_to_string(folder.join(rel)) {
        Ok(t) => Some(t),
        Err(e) => {
            refusals.push(format!("{rel}: cannot read ({e}); a Harbor task needs it"));
            None
        }
    }
}

/// What task.toml asks for that nab's sandbox does not have: GPUs, a prebuilt image, the
/// network.
fn refuse_toml(t: &harbor_toml::HarborToml, refusals: &mut Vec<String>) {
    if t.gpus > 0 || !t.gpu_types.is_empty() {
        refusals.push(format!(
            "needs GPUs (gpus = {}); nab's sandbox has none",
            t.gpus
        ));
    }
    if let Some(img) = &t.docker_image {
        refusals.push(format!(
            "prebuilt image (docker_image = \"{img}\"); nab builds every image from Debian packages and cannot pull images"
        ));
    }
    if t.allow_internet {
        refusals.push(
            "needs the network at run time (allow_internet = true); nab's agent and verifier have none"
                .to_owned(),
        );
    }
}

/// tests/ besides test.sh: at least one test_*.py for pytest, and no script that does what
/// the verifier cannot (see `scripts::test_file`).
fn check_test_files(folder: &Path, refusals: &mut Vec<String>) {
    let mut has_test_py = false;
    for e in walkdir::WalkDir::new(folder.join("tests"))
        .follow_links(false)
        .into_iter()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if !e.file_type().is_file() || name == "test.sh" {
            continue;
        }
        has_test_py |= name.starts_with("test_") && name.ends_with(".py");
        if (name.ends_with(".py") || name.ends_with(".sh"))
            && let Ok(text) = std::fs::read_to_string(e.path())
        {
            refusals.extend(scripts::test_file(&name, &text));
        }
    }
    if !has_test_py {
        refusals.push("tests/ has no test_*.py for pytest to run".to_owned());
    }
}

async fn write(
    folder: &Path,
    out: &Path,
    id: &str,
    p: &Plan,
    builder: &Builder,
) -> Result<(), Vec<String>> {
    let tmp = out.join(format!(".{id}.importing-{}", std::process::id()));
    let mut result = write_into(folder, &tmp, id, p);
    if result.is_ok() && !p.docker.workdir_runs.is_empty() {
        result = build_workspace(folder, &tmp, id, p, builder).await;
    }
    let result = result.and_then(|()| {
        crate::task::load_task(&rename_target(&tmp, out, id)?)
            .map(|_| ())
            .map_err(|issues| {
                issues
                    .iter()
                    .map(|i| format!("the converted task does not load: {i}"))
                    .collect()
            })
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        let _ = std::fs::remove_dir_all(out.join(id));
    }
    result
}

/// Runs the Dockerfile's workspace steps, with its copies between them in order, in an
/// import container (`workdir_build`), and unpacks what they leave into `workspace/`.
async fn build_workspace(
    folder: &Path,
    dest: &Path,
    id: &str,
    p: &Plan,
    builder: &Builder,
) -> Result<(), Vec<String>> {
    let stage = dest.join(".import-stage");
    let steps = workspace_steps(folder, &stage, p);
    let _ = std::fs::remove_dir_all(&stage);
    let job = Job {
        task: id,
        env: Environment {
            apt: p.apt.clone(),
            pip: p.pip.clone(),
            setup: p.docker.setup.clone(),
        },
        cpus: p.toml.cpus,
        memory_mb: p.toml.memory_mb,
        storage_mb: p.toml.storage_mb,
        steps: steps?,
        into: &dest.join("workspace"),
    };
    builder.build(job).await.map_err(|e| vec![e])
}

/// The copies and workspace steps in the Dockerfile's order; each copy packed from a
/// folder of its own under `stage` (text rewritten as in every other file of the task).
fn workspace_steps(folder: &Path, stage: &Path, p: &Plan) -> Result<Vec<Step>, Vec<String>> {
    let rewrite = |t: &str| match &p.docker.workdir {
        Some(w) => replace_path(t, w, "/workspace"),
        None => t.to_owned(),
    };
    let env_dir = folder.join("environment");
    let mut steps = Vec::new();
    for i in 0..=p.docker.copies.len() {
        for r in p.docker.workdir_runs.iter().filter(|r| r.after_copies == i) {
            steps.push(Step::Run {
                what: format!("`RUN {}` (Dockerfile line {})", r.script, r.line),
                script: rewrite(&r.script),
                cwd: r.cwd.clone(),
            });
        }
        if let Some((src, rel)) = p.docker.copies.get(i) {
            let root = stage.join(i.to_string());
            std::fs::create_dir_all(&root)
                .map_err(|e| vec![format!("staging `COPY {src}`: {e}")])?;
            place_copy(&env_dir, src, rel, &root, &rewrite)?;
            let tar = crate::env::workspace::pack_dir(&root)
                .map_err(|e| vec![format!("packing `COPY {src}`: {e}")])?;
            steps.push(Step::Copy {
                what: format!("`COPY {src}`"),
                tar,
            });
        }
    }
    Ok(steps)
}

/// Renames the finished folder into place and returns its path.
fn rename_target(tmp: &Path, out: &Path, id: &str) -> Result<PathBuf, Vec<String>> {
    let dest = out.join(id);
    std::fs::rename(tmp, &dest)
        .map_err(|e| vec![format!("cannot move the task into {}: {e}", dest.display())])?;
    Ok(dest)
}

fn write_into(folder: &Path, dest: &Path, id: &str, p: &Plan) -> Result<(), Vec<String>> {
    let io = |what: &str| {
        let what = what.to_owned();
        move |e: std::io::Error| vec![format!("{what}: {e}")]
    };
    let workdir = p.docker.workdir.clone();
    let rewrite = |text: &str, extra: &[(&str, &str)]| {
        let mut t = text.to_owned();
        if let Some(w) = &workdir {
            t = replace_path(&t, w, "/workspace");
        }
        for (from, to) in extra {
            t = replace_path(&t, from, to);
        }
        t
    };
    std::fs::create_dir_all(dest.join("workspace")).map_err(io("workspace/"))?;
    // With workspace steps, the copies go in between them, in the import container.
    if p.docker.workdir_runs.is_empty() {
        let env_dir = folder.join("environment");
        for (src, rel) in &p.docker.copies {
            place_copy(&env_dir, src, rel, &dest.join("workspace"), &|t| {
                rewrite(t, &[])
            })?;
        }
    }
    copy_tree(&folder.join("solution"), &dest.join("solution"), &|t| {
        rewrite(t, &[("/solution", "/nab/solution")])
    })?;
    copy_tree(&folder.join("tests"), &dest.join("tests"), &|t| {
        rewrite(t, &[("/tests", "/nab/tests")])
    })?;
    let _ = std::fs::remove_file(dest.join("tests/test.sh"));
    let instruction =
        std::fs::read_to_string(folder.join("instruction.md")).map_err(io("instruction.md"))?;
    std::fs::write(dest.join("instruction.md"), rewrite(&instruction, &[]))
        .map_err(io("instruction.md"))?;
    std::fs::write(dest.join("task.yaml"), task_yaml(id, folder, p)).map_err(io("task.yaml"))?;
    Ok(())
}

/// One COPY of the Dockerfile: `src` (under `env_dir`) to `rel` under `ws`, as Docker
/// places it (a file copied to a folder keeps its name).
fn place_copy(
    env_dir: &Path,
    src: &str,
    rel: &str,
    ws: &Path,
    rewrite: &dyn Fn(&str) -> String,
) -> Result<(), Vec<String>> {
    let from = env_dir.join(src.trim_end_matches('/'));
    let target = if from.is_dir() || rel.is_empty() || rel.ends_with('/') {
        ws.join(rel.trim_end_matches('/'))
    } else {
        ws.join(rel)
    };
    let target = if from.is_file() && (rel.is_empty() || rel.ends_with('/')) {
        target.join(from.file_name().unwrap_or_default())
    } else {
        target
    };
    if !from.exists() {
        return Err(vec![format!(
            "`COPY {src}`: environment/{src} does not exist"
        )]);
    }
    copy_tree(&from, &target, rewrite)
}

/// Copies a file or a folder (no links followed), rewriting UTF-8 text with `rewrite`.
fn copy_tree(from: &Path, to: &Path, rewrite: &dyn Fn(&str) -> String) -> Result<(), Vec<String>> {
    let err = |p: &Path, e: std::io::Error| vec![format!("copying {}: {e}", p.display())];
    for e in walkdir::WalkDir::new(from).follow_links(false) {
        let e = e.map_err(|e| vec![format!("copying {}: {e}", from.display())])?;
        let rel = e.path().strip_prefix(from).unwrap_or(Path::new(""));
        let target = if rel.as_os_str().is_empty() {
            to.to_owned()
        } else {
            to.join(rel)
        };
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).map_err(|x| err(&target, x))?;
        } else if e.file_type().is_file() {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|x| err(parent, x))?;
            }
            let bytes = std::fs::read(e.path()).map_err(|x| err(e.path(), x))?;
            let body = match String::from_utf8(bytes) {
                Ok(text) => rewrite(&text).into_bytes(),
                Err(raw) => raw.into_bytes(),
            };
            std::fs::write(&target, body).map_err(|x| err(&target, x))?;
            let mode = e
                .metadata()
                .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()))
                .unwrap_or(0o644);
            let _ = std::fs::set_permissions(
                &target,
                std::os::unix::fs::PermissionsExt::from_mode(mode & 0o755),
            );
        }
    }
    Ok(())
}

/// Replaces `from` where it stands as a whole path (not `/apple` or `/my/app` for `/app`).
pub(super) fn replace_path(text: &str, from: &str, to: &str) -> String {
    let part = |c: char| c.is_ascii_alphanumeric() || "_.-".contains(c);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut from_i = 0;
    while let Some(k) = text[from_i..].find(from) {
        let start = from_i + k;
        let end = start + from.len();
        let before_ok = !text[..start].ends_with(|c: char| part(c) || c == '/');
        let after_ok = !text[end..].starts_with(part);
        if before_ok && after_ok {
            out.push_str(&text[last..start]);
            out.push_str(to);
            last = end;
        }
        from_i = end;
    }
    out.push_str(&text[last..]);
    out
}

fn task_yaml(id: &str, folder: &Path, p: &Plan) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let t = &p.toml;
    let category = match t.category.as_deref().map(str::to_ascii_lowercase) {
        Some(c) if c.contains("debug") || c.contains("bug") => "bug-fix",
        _ => "terminal",
    };
    let difficulty = t
        .difficulty
        .as_deref()
        .filter(|d| matches!(*d, "easy" | "medium" | "hard"))
        .unwrap_or("medium");
    let language = if p.docker.copies.iter().any(|(s, _)| s.ends_with(".py"))
        || walkdir::WalkDir::new(folder.join("environment"))
            .into_iter()
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "py"))
    {
        "python"
    } else {
        "shell"
    };
    let source = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let step_s = t.verifier_timeout_s.min(3600.0);
    let disk = t.storage_mb.map(|d| d.clamp(16, 1024 * 1024));
    let mut y = format!(
        "# Converted by `nab import harbor` from {source}. Timeouts and limits come from its task.toml.\n\
         id: {id}\ncategory: {category}\nlanguage: {language}\ndifficulty: {difficulty}\n\
         description: {}\norigin: harbor\n\
         timeouts: {{agent_s: {}, verify_s: {}}}\n\
         limits: {{cpus: {}, memory_mb: {}, pids: 256{}}}\n\
         # Harbor's tests read and run the working folder's code in their own process, so they\n\
         # run beside it: the code under test could reach this verdict (records say so).\n\
         verifier: shared\n\
         verify:\n  - argv: [\"python3\", \"-I\", \"-m\", \"pytest\", \"-q\", \"-p\", \"no:cacheprovider\", \"--rootdir\", \"/nab/tests\",\n           \"--junitxml\", \"{JUNIT}\", \"/nab/tests\"]\n    timeout_s: {step_s}\n    junit: {JUNIT}\n\
         solution: [\"bash\", \"/nab/solution/solve.sh\"]\n",
        q(&format!("Imported from the Harbor task {source}")),
        t.agent_timeout_s,
        t.verifier_timeout_s,
        t.cpus,
        t.memory_mb,
        disk.map(|d| format!(", disk_mb: {d}")).unwrap_or_default(),
    );
    if !p.apt.is_empty() || !p.pip.is_empty() || !p.docker.setup.is_empty() {
        y.push_str("environment:\n");
        let list = |name: &str, v: &[String]| {
            if v.is_empty() {
                String::new()
            } else {
                format!(
                    "  {name}:\n{}",
                    v.iter()
                        .map(|x| format!("    - {}\n", q(x)))
                        .collect::<String>()
                )
            }
        };
        y.push_str(&list("apt", &p.apt));
        y.push_str(&list("pip", &p.pip));
        y.push_str(&list("setup", &p.docker.setup));
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_rewritten_only_where_whole() {
        assert_eq!(
            replace_path(
                "cd /app && cat /app/x /apple /my/app \"/app\"",
                "/app",
                "/workspace"
            ),
            "cd /workspace && cat /workspace/x /apple /my/app \"/workspace\""
        );
        assert_eq!(
            replace_path("/tests/a.txt", "/tests", "/nab/tests"),
            "/nab/tests/a.txt"
        );
        assert_eq!(task_id("Hello World.v2"), "hello-world-v2");
    }
}
