//! A task's image recipe: the base image plus the task's `environment:`, rendered as a
//! Dockerfile whose hash names the image (`nab-task:<hash>`). The hash covers the base tag
//! and the normalized environment, so two tasks with the same environment share an image,
//! and a new base image or a changed environment gives a new tag.

use crate::task::Environment;
use sha2::{Digest, Sha256};

pub(super) const TASK_IMAGE_REPO: &str = "nab-task";
/// Declared agents' images: `nab-agent-image:<agent>-<hash>`, one per agent and task image.
pub(super) const AGENT_IMAGE_REPO: &str = "nab-agent-image";

/// Bump when the rendering below changes in a way the environment does not show.
const TASK_PROCEDURE: &str = "nab-task docker build v1";
/// The same for a declared agent's image (its PyPI packages go to a virtual environment).
const AGENT_PROCEDURE: &str = "nab-agent-image docker build v1";

/// Where the build reads the host's apt sources from (copied in by the build context).
pub(super) const SOURCES_IN_CONTEXT: &str = "nab-apt.list";
const SOURCES_IN_IMAGE: &str = "/tmp/nab-build/sources.list";
/// The CA bundle pip trusts on this machine (`PIP_CERT`, pip.conf's `cert`, or the system
/// bundle), copied into the build so pip reaches the index the way the host does. It lies
/// under /tmp, which every container mounts over with its own tmpfs.
pub(super) const PIP_CA_IN_CONTEXT: &str = "nab-pip-ca.crt";
const PIP_CA_IN_IMAGE: &str = "/tmp/nab-pip/ca.crt";

/// One Dockerfile instruction and what to call it if it fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    pub line: String,
    /// `None` for instructions that cannot fail for a reason the task controls.
    pub command: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRecipe {
    pub base: String,
    /// Sorted and without repeats: the order of a package list does not change the image.
    pub apt: Vec<String>,
    pub pip: Vec<String>,
    /// In the task's order: each command may depend on the one before.
    pub setup: Vec<String>,
    /// A declared agent's name when this is its image on top of `base` (a task image or
    /// the base image): its PyPI packages then go to a virtual environment at
    /// [`crate::agents::VENV`], so the agent's libraries never change the task's Python.
    pub agent: Option<String>,
}

impl TaskRecipe {
    pub fn new(base: &str, env: &Environment) -> Self {
        let norm = |v: &[String]| {
            let mut v: Vec<String> = v.iter().map(|s| s.trim().to_owned()).collect();
            v.sort();
            v.dedup();
            v
        };
        let mut apt = norm(&env.apt);
        if !env.pip.is_empty() && !apt.iter().any(|p| p == "python3-pip") {
            apt.push("python3-pip".to_owned());
            apt.sort();
        }
        TaskRecipe {
            base: base.to_owned(),
            apt,
            pip: norm(&env.pip),
            setup: env.setup.clone(),
            agent: None,
        }
    }

    /// The image of the declared agent `name` (its `environment:` is `env`) on top of the
    /// task image (or base image) `base`.
    pub fn for_agent(base: &str, name: &str, env: &Environment) -> Self {
        let mut r = TaskRecipe::new(base, env);
        if !r.pip.is_empty() {
            // A virtual environment needs venv, not Debian's pip (the venv brings its own).
            r.apt
                .retain(|p| p != "python3-pip" || env.apt.iter().any(|a| a.trim() == p));
            if !r.apt.iter().any(|p| p == "python3-venv") {
                r.apt.push("python3-venv".to_owned());
                r.apt.sort();
            }
        }
        r.agent = Some(name.to_owned());
        r
    }

    /// The instructions, in order, without the final label (which carries the hash).
    pub fn instructions(&self) -> Vec<Instruction> {
        let plain = |line: String| Instruction {
            line,
            command: None,
        };
        let mut out = vec![
            plain(format!("FROM {}", self.base)),
            plain("USER root".to_owned()),
        ];
        if !self.apt.is_empty() {
            // The host's own sources, not the image's: the mirror is whatever this machine uses.
            let apt = format!(
                "apt-get -q -o Dir::Etc::SourceList={SOURCES_IN_IMAGE} -o Dir::Etc::SourceParts=/nonexistent"
            );
            out.push(plain(format!(
                "COPY {SOURCES_IN_CONTEXT} {SOURCES_IN_IMAGE}"
            )));
            let script = format!(
                "{apt} update && DEBIAN_FRONTEND=noninteractive {apt} install -y --no-install-recommends {} \
                 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb /tmp/nab-build",
                self.apt.join(" ")
            );
            out.push(Instruction {
                line: format!("RUN {}", json_argv(&["/bin/sh", "-c", &script])),
                command: Some(format!("apt-get install {}", self.apt.join(" "))),
            });
        }
        if !self.pip.is_empty() {
            out.extend(self.pip_instructions());
        }
        for (i, cmd) in self.setup.iter().enumerate() {
            out.push(Instruction {
                line: format!("RUN {}", json_argv(&["/bin/sh", "-c", cmd])),
                command: Some(format!("setup[{i}]: {cmd}")),
            });
        }
        // Back to the sandbox user: containers start as uid 1000 in /workspace as before.
        out.push(plain("USER 1000:1000".to_owned()));
        out.push(plain("WORKDIR /workspace".to_owned()));
        out
    }

    /// The PyPI packages: into the system's Python for a task (its code and tests import
    /// them), into a virtual environment of its own for an agent.
    fn pip_instructions(&self) -> Vec<Instruction> {
        let venv_pip = format!("{}/bin/pip", crate::agents::VENV);
        let mut out = vec![Instruction {
            line: format!("COPY {PIP_CA_IN_CONTEXT} {PIP_CA_IN_IMAGE}"),
            command: None,
        }];
        let mut argv = match &self.agent {
            // As it always was, so the task images' tags do not change.
            None => vec![
                "python3",
                "-m",
                "pip",
                "install",
                "--no-cache-dir",
                "--no-input",
                "--break-system-packages",
                "--root-user-action=ignore",
            ],
            Some(_) => {
                let venv = ["python3", "-m", "venv", crate::agents::VENV];
                out.push(Instruction {
                    line: format!("RUN {}", json_argv(&venv)),
                    command: Some(venv.join(" ")),
                });
                vec![
                    venv_pip.as_str(),
                    "install",
                    "--no-cache-dir",
                    "--no-input",
                    "--disable-pip-version-check",
                ]
            }
        };
        argv.extend(["--cert", PIP_CA_IN_IMAGE]);
        argv.extend(self.pip.iter().map(String::as_str));
        out.push(Instruction {
            line: format!("RUN {}", json_argv(&argv)),
            command: Some(format!("pip install {}", self.pip.join(" "))),
        });
        out
    }

    /// First 12 hex digits of SHA-256 over the procedure and every instruction.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        let lines: Vec<String> = self.instructions().into_iter().map(|i| i.line).collect();
        let procedure = match &self.agent {
            None => TASK_PROCEDURE.to_owned(),
            Some(name) => format!("{AGENT_PROCEDURE} {name}"),
        };
        for part in std::iter::once(procedure).chain(lines) {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        hex::encode(h.finalize())[..12].to_owned()
    }

    pub fn tag(&self) -> String {
        match &self.agent {
            None => format!("{TASK_IMAGE_REPO}:{}", self.hash()),
            Some(name) => format!("{AGENT_IMAGE_REPO}:{name}-{}", self.hash()),
        }
    }

    /// The whole Dockerfile, ending with labels `nab image ls` reads.
    pub fn dockerfile(&self) -> String {
        let mut text: String = self
            .instructions()
            .into_iter()
            .map(|i| i.line + "\n")
            .collect();
        let kind = match &self.agent {
            None => "task".to_owned(),
            Some(name) => format!("agent nab.agent={name}"),
        };
        text.push_str(&format!(
            "LABEL nab.image={kind} nab.recipe={} nab.base={}\n",
            self.hash(),
            self.base
        ));
        text
    }
}

/// A JSON array: the exec form of RUN, so nothing is re-parsed by a shell Docker adds.
fn json_argv(argv: &[&str]) -> String {
    serde_json::to_string(argv).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(apt: &[&str], pip: &[&str], setup: &[&str]) -> Environment {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect();
        Environment {
            apt: v(apt),
            pip: v(pip),
            setup: v(setup),
        }
    }

    #[test]
    fn the_tag_ignores_package_order_but_tracks_the_base_setup_order_and_every_package() {
        let a = TaskRecipe::new("nab-base:1", &env(&["jq", "sqlite3"], &[], &["true"]));
        let b = TaskRecipe::new("nab-base:1", &env(&["sqlite3", "jq", "jq"], &[], &["true"]));
        assert_eq!(a.tag(), b.tag());
        assert!(a.tag().starts_with("nab-task:"));
        let other_base = TaskRecipe::new("nab-base:2", &env(&["jq", "sqlite3"], &[], &["true"]));
        assert_ne!(a.tag(), other_base.tag());
        let more = TaskRecipe::new("nab-base:1", &env(&["jq", "sqlite3", "bc"], &[], &["true"]));
        assert_ne!(a.tag(), more.tag());
        let two = TaskRecipe::new("nab-base:1", &env(&[], &[], &["a", "b"]));
        let swapped = TaskRecipe::new("nab-base:1", &env(&[], &[], &["b", "a"]));
        assert_ne!(two.tag(), swapped.tag());
    }

    #[test]
    fn pip_brings_pip_and_the_image_ends_as_the_sandbox_user() {
        let r = TaskRecipe::new("nab-base:1", &env(&[], &["tomli==2.0.1"], &["echo 'a\"b'"]));
        assert_eq!(r.apt, ["python3-pip"]);
        let d = r.dockerfile();
        assert!(d.starts_with("FROM nab-base:1\nUSER root\n"), "{d}");
        assert!(d.contains("\"tomli==2.0.1\""), "{d}");
        // The set-up command is one JSON string, quotes escaped, not re-split.
        assert!(d.contains(r#"["/bin/sh","-c","echo 'a\"b'"]"#), "{d}");
        let tail: Vec<&str> = d.lines().rev().take(3).collect();
        assert_eq!(tail[1], "WORKDIR /workspace");
        assert_eq!(tail[2], "USER 1000:1000");
        assert!(tail[0].contains(&format!("nab.recipe={}", r.hash())));
        let named: Vec<String> = r
            .instructions()
            .into_iter()
            .filter_map(|i| i.command)
            .collect();
        assert_eq!(
            named,
            [
                "apt-get install python3-pip",
                "pip install tomli==2.0.1",
                "setup[0]: echo 'a\"b'"
            ]
        );
    }
}
