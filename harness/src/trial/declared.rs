//! How a declared agent (`agents/<name>/agent.yaml`) is started: its image on top of the
//! task's, its command line with the placeholders filled, and the variables that point it
//! at the model through the in-container relay. Nothing here is parsed by a shell: each
//! value lands in one argv element or one variable.

use crate::agents::placeholders::{self, Placeholder};
use crate::agents::{DeclaredAgent, InstructionVia};
use crate::env::image::TaskRecipe;
use crate::task::Task;

/// The instruction file, as every agent sees it.
const INSTRUCTION_FILE: &str = "/nab/instruction.md";
/// The longest single argument Linux passes to a program (MAX_ARG_STRLEN).
const MAX_ARGUMENT: usize = 128 * 1024;

/// Why a declared agent cannot be started on a task (before any container exists).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LaunchError {
    #[error("agent {agent}: cannot read the instruction {path}: {source}")]
    Instruction {
        agent: String,
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// The argv and the variables of a declared agent's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Launch {
    pub(crate) argv: Vec<String>,
    pub(crate) env: Vec<String>,
}

/// The tag of `agent`'s image on top of `task_image` (the task's own image, or the base
/// image for a task without an `environment:`).
pub fn image_for(agent: &DeclaredAgent, task_image: &str) -> String {
    TaskRecipe::for_agent(task_image, &agent.name, &agent.spec.environment).tag()
}

/// The command line and the variables for `agent` on `task`, telling it `model`.
pub(crate) fn launch(
    agent: &DeclaredAgent,
    task: &Task,
    model: &str,
) -> Result<Launch, LaunchError> {
    let spec = &agent.spec;
    let instruction = match spec.instruction {
        InstructionVia::Argument => {
            let path = task.instruction_path();
            let text =
                std::fs::read_to_string(&path).map_err(|source| LaunchError::Instruction {
                    agent: agent.name.clone(),
                    path: path.clone(),
                    source,
                })?;
            if text.len() >= MAX_ARGUMENT {
                return Err(LaunchError::Instruction {
                    agent: agent.name.clone(),
                    path,
                    source: std::io::Error::other(format!(
                        "{} bytes is more than one argument can carry ({MAX_ARGUMENT}); declare `instruction: file` or `stdin`",
                        text.len()
                    )),
                });
            }
            text
        }
        _ => String::new(),
    };
    let value = |p: Placeholder| match p {
        Placeholder::Model => model.to_owned(),
        Placeholder::Instruction => instruction.clone(),
        Placeholder::InstructionFile => INSTRUCTION_FILE.to_owned(),
    };
    let command: Vec<String> = spec
        .command
        .iter()
        .map(|a| placeholders::fill(a, value))
        .collect();
    let argv = match spec.instruction {
        // A constant program: the agent's argv follows as "$0" "$@", never spliced in.
        InstructionVia::Stdin => [
            "/bin/sh".to_owned(),
            "-c".to_owned(),
            format!("exec \"$0\" \"$@\" < {INSTRUCTION_FILE}"),
        ]
        .into_iter()
        .chain(command)
        .collect(),
        _ => command,
    };
    let mut env: Vec<String> = spec
        .env
        .iter()
        .map(|(k, v)| format!("{k}={}", placeholders::fill(v, value)))
        .collect();
    // The loopback relay's address (see `loopback`), in the form the agent's API expects.
    let base_url = spec.api.base_url(&super::loopback::base_url());
    env.extend(spec.base_url_env.iter().map(|k| format!("{k}={base_url}")));
    env.extend(
        spec.api_key_env
            .iter()
            .map(|k| format!("{k}={}", super::loopback::PLACEHOLDER_KEY)),
    );
    Ok(Launch { argv, env })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{AgentSpec, Api};
    use std::path::PathBuf;

    fn agent(command: &[&str], via: InstructionVia, api: Api) -> DeclaredAgent {
        DeclaredAgent {
            name: "tester".into(),
            dir: PathBuf::from("/agents/tester"),
            spec: AgentSpec {
                description: "t".into(),
                environment: Default::default(),
                command: command.iter().map(|s| s.to_string()).collect(),
                instruction: via,
                api,
                base_url_env: vec!["OPENAI_API_BASE".into()],
                api_key_env: vec!["OPENAI_API_KEY".into()],
                env: [("LITELLM_X".to_owned(), "m={model}".to_owned())].into(),
            },
        }
    }

    fn task(dir: &std::path::Path) -> Task {
        let yaml = "id: t\ncategory: bug-fix\nlanguage: python\ndifficulty: easy\ntimeouts: {agent_s: 1, verify_s: 1}\nlimits: {cpus: 1, memory_mb: 256, pids: 64}\nverify: [{argv: [\"true\"], timeout_s: 1}]\nsolution: [\"true\"]\n";
        std::fs::write(
            dir.join("instruction.md"),
            "Fix it; don't `rm -rf $HOME`.\n",
        )
        .unwrap();
        Task {
            spec: serde_yaml::from_str(yaml).unwrap(),
            dir: dir.to_owned(),
            wrong: vec![],
            pinned_tests: None,
            image: None,
        }
    }

    #[test]
    fn the_instruction_goes_where_the_declaration_says_and_never_through_a_shell() {
        let dir = tempfile::tempdir().unwrap();
        let t = task(dir.path());
        let a = agent(
            &[
                "/opt/nab-agent/bin/x",
                "-m",
                "openai/{model}",
                "-t",
                "{instruction}",
            ],
            InstructionVia::Argument,
            Api::OpenaiChat,
        );
        let l = launch(&a, &t, "scripted").unwrap();
        assert_eq!(
            l.argv,
            [
                "/opt/nab-agent/bin/x",
                "-m",
                "openai/scripted",
                "-t",
                "Fix it; don't `rm -rf $HOME`.\n"
            ]
        );
        assert_eq!(
            l.env,
            [
                "LITELLM_X=m=scripted",
                "OPENAI_API_BASE=http://127.0.0.1:47611/v1",
                &format!("OPENAI_API_KEY={}", crate::trial::loopback::PLACEHOLDER_KEY),
            ]
        );
        let a = agent(
            &["x", "--file", "{instruction_file}"],
            InstructionVia::File,
            Api::OpenaiChat,
        );
        assert_eq!(
            launch(&a, &t, "m").unwrap().argv,
            ["x", "--file", INSTRUCTION_FILE]
        );
        let a = agent(
            &["x", "$(reboot)"],
            InstructionVia::Stdin,
            Api::AnthropicMessages,
        );
        let l = launch(&a, &t, "m").unwrap();
        assert_eq!(
            l.argv[..3],
            ["/bin/sh", "-c", "exec \"$0\" \"$@\" < /nab/instruction.md"]
        );
        assert_eq!(
            l.argv[3..],
            ["x", "$(reboot)"],
            "the agent's words are arguments, not script"
        );
        assert!(
            l.env
                .contains(&"OPENAI_API_BASE=http://127.0.0.1:47611".to_owned())
        );
    }

    #[test]
    fn an_instruction_too_long_for_one_argument_is_refused_before_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let t = task(dir.path());
        std::fs::write(dir.path().join("instruction.md"), "x".repeat(MAX_ARGUMENT)).unwrap();
        let a = agent(
            &["x", "{instruction}"],
            InstructionVia::Argument,
            Api::OpenaiChat,
        );
        let e = launch(&a, &t, "m").unwrap_err().to_string();
        assert!(e.contains("instruction: file"), "{e}");
    }

    #[test]
    fn the_agents_image_sits_on_the_tasks_image_and_changes_with_it() {
        let a = agent(&["x"], InstructionVia::Stdin, Api::OpenaiChat);
        let on_base = image_for(&a, "nab-base:1");
        assert!(on_base.starts_with("nab-agent-image:tester-"), "{on_base}");
        assert_ne!(on_base, image_for(&a, "nab-task:2"));
    }
}
