//! `execute_command {argv?, command?, timeout_s?}`: runs a program in the workspace.
//!
//! The command is judged by the policy first. The child runs in its own process group with
//! the scrubbed environment, stdin closed and output captured with a cap (head and tail are
//! kept); on timeout the whole group is killed, so a backgrounded grandchild cannot linger.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

use crate::guard::PolicyVerdict;
use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args};

pub const DEFAULT_TIMEOUT_S: u64 = 60;
pub const MAX_TIMEOUT_S: u64 = 60;
/// Bytes kept from the start and from the end of each stream.
pub const HEAD_BYTES: usize = 16 * 1024;
pub const TAIL_BYTES: usize = 8 * 1024;

pub struct ExecuteCommand;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    #[serde(default)]
    argv: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    timeout_s: Option<u64>,
}

#[async_trait::async_trait]
impl ToolHandler for ExecuteCommand {
    fn name(&self) -> &str {
        "execute_command"
    }
    fn description(&self) -> &str {
        "Run a command in the workspace folder and return its exit code, stdout and stderr (capped). Give exactly one of `argv` (program and arguments, no shell) or `command` (a shell string run with `bash -c`). Times out after `timeout_s` seconds (default and maximum 60). No network; stdin is closed."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "argv": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "Program and arguments, run without a shell."},
                "command": {"type": "string", "description": "A shell command line, run with `bash -c`."},
                "timeout_s": {"type": "integer", "minimum": 1, "maximum": MAX_TIMEOUT_S, "description": "Seconds before the command is killed (default 60)."}
            }),
            &[],
        )
    }
    fn is_mutating(&self) -> bool {
        true
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        let invalid = |problem| Err(ToolError::invalid("execute_command", problem));
        let (argv, shown) = match (a.argv, a.command) {
            (Some(_), Some(_)) => {
                return invalid("give exactly one of `argv` or `command`, not both");
            }
            (None, None) => return invalid("field `argv` or `command` is required"),
            (Some(argv), None) if argv.is_empty() || argv[0].is_empty() => {
                return invalid("field `argv`: must name a program");
            }
            (Some(argv), None) => {
                let shown = argv.join(" ");
                (argv, shown)
            }
            (None, Some(cmd)) if cmd.trim().is_empty() => {
                return invalid("field `command`: must not be empty");
            }
            (None, Some(cmd)) => (vec!["bash".to_string(), "-c".to_string(), cmd.clone()], cmd),
        };
        let timeout = match a.timeout_s {
            Some(0) => return invalid("field `timeout_s`: must be at least 1"),
            Some(t) => t.min(MAX_TIMEOUT_S),
            None => DEFAULT_TIMEOUT_S,
        };
        if let PolicyVerdict::Block { rule, reason } = ctx.policy.check_argv(&argv) {
            return Ok(ToolOutput::blocked(&shown, rule, reason));
        }
        run(ctx, &argv, Duration::from_secs(timeout)).await
    }
}

/// Keeps the first `HEAD_BYTES` and the last `TAIL_BYTES` of a stream.
#[derive(Default)]
struct Capture {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    total: u64,
}

impl Capture {
    fn push(&mut self, data: &[u8]) {
        self.total += data.len() as u64;
        let room = HEAD_BYTES.saturating_sub(self.head.len());
        let (h, rest) = data.split_at(room.min(data.len()));
        self.head.extend_from_slice(h);
        for &b in rest {
            if self.tail.len() == TAIL_BYTES {
                self.tail.pop_front();
            }
            self.tail.push_back(b);
        }
    }

    fn render(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.head).into_owned();
        let kept = (self.head.len() + self.tail.len()) as u64;
        if self.total > kept {
            s.push_str(&format!(
                "\n[... {} bytes omitted ...]\n",
                self.total - kept
            ));
        }
        let (a, b) = self.tail.as_slices();
        s.push_str(&String::from_utf8_lossy(&[a, b].concat()));
        s
    }
}

/// Kills the child's process group when dropped while armed — also when the batch's
/// deadline cancels this future.
struct GroupKiller(Option<i32>);

impl Drop for GroupKiller {
    fn drop(&mut self) {
        if let Some(pgid) = self.0.take() {
            // SAFETY: killpg has no memory-safety preconditions; a stale pgid only fails.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

async fn run(
    ctx: &ToolContext,
    argv: &[String],
    timeout: Duration,
) -> Result<ToolOutput, ToolError> {
    let mut cmd = tokio::process::Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .current_dir(ctx.guard.root())
        .env_clear()
        .envs(ctx.child_env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|source| ToolError::Spawn {
        program: argv[0].clone(),
        source,
    })?;
    let killer = GroupKiller(child.id().map(|p| p as i32));
    let out = Arc::new(Mutex::new(Capture::default()));
    let err = Arc::new(Mutex::new(Capture::default()));
    let readers = [
        spawn_reader(child.stdout.take(), out.clone()),
        spawn_reader(child.stderr.take(), err.clone()),
    ];

    let waited = tokio::time::timeout(timeout, child.wait()).await;
    let status = match waited {
        Ok(Ok(status)) => Some(status),
        Ok(Err(source)) => {
            return Err(ToolError::Wait {
                program: argv[0].clone(),
                source,
            });
        }
        Err(_) => None,
    };
    // Kill what is left of the group either way: background jobs would hold the pipes open.
    drop(killer);
    let _ = child.wait().await;
    for r in readers {
        let _ = tokio::time::timeout(Duration::from_secs(2), r).await;
    }
    let stdout = lock_render(&out);
    let stderr = lock_render(&err);
    let mut text = String::new();
    match status {
        None => {
            text.push_str(&format!(
                "command did not finish within {} s and was killed; output so far:",
                timeout.as_secs()
            ));
            append_streams(&mut text, &stdout, &stderr);
            Ok(ToolOutput::timeout(text))
        }
        Some(status) => {
            match status.code() {
                Some(code) => text.push_str(&format!("exit code: {code}")),
                None => {
                    use std::os::unix::process::ExitStatusExt;
                    text.push_str(&format!(
                        "terminated by signal {}",
                        status.signal().unwrap_or(0)
                    ));
                }
            }
            append_streams(&mut text, &stdout, &stderr);
            Ok(ToolOutput::ok(text))
        }
    }
}

fn lock_render(c: &Arc<Mutex<Capture>>) -> String {
    c.lock().unwrap_or_else(|p| p.into_inner()).render()
}

fn append_streams(text: &mut String, stdout: &str, stderr: &str) {
    if !stdout.is_empty() {
        text.push_str("\n--- stdout ---\n");
        text.push_str(stdout.trim_end());
    }
    if !stderr.is_empty() {
        text.push_str("\n--- stderr ---\n");
        text.push_str(stderr.trim_end());
    }
    if stdout.is_empty() && stderr.is_empty() {
        text.push_str("\n(no output)");
    }
}

fn spawn_reader<R>(pipe: Option<R>, sink: Arc<Mutex<Capture>>) -> tokio::task::JoinHandle<()>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let Some(mut pipe) = pipe else { return };
        let mut buf = vec![0u8; 8192];
        loop {
            match pipe.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => sink
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(&buf[..n]),
            }
        }
    })
}
