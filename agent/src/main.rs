//! `nab-agent run …`: the command line around the library.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use nab_agent::EventSink;
use nab_agent::display::Display;
use nab_agent::{Agent, AgentConfig};
use nab_agent::{ClientConfig, Endpoint, LlmClient};
use nab_agent::{ClientSummarizer, ThreeTier};
use nab_agent::{McpConfig, Timings as McpTimings};
use nab_protocol::ExitReason;

#[derive(Parser)]
#[command(
    name = "nab-agent",
    version,
    about = "A terminal coding agent for OpenAI-compatible models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Work on a task in a folder until the model gives a final answer or a limit is hit.
    Run(RunArgs),
}

#[derive(Args)]
struct RunArgs {
    /// The folder the agent works in; every file path must stay inside it.
    #[arg(long)]
    workspace: PathBuf,
    /// The task, as text.
    #[arg(
        long,
        conflicts_with = "instruction_file",
        required_unless_present = "instruction_file"
    )]
    instruction: Option<String>,
    /// The task, read from a file.
    #[arg(long)]
    instruction_file: Option<PathBuf>,
    /// http(s)://host[:port][/v1] or unix:///path/to.sock. The API key comes from NAB_API_KEY
    /// or OPENAI_API_KEY, never from a flag.
    #[arg(long)]
    base_url: String,
    #[arg(long)]
    model: String,
    /// Write the event stream (JSON lines) here.
    #[arg(long)]
    events: Option<PathBuf>,
    #[arg(long, default_value_t = 50)]
    max_steps: u32,
    /// The model's context window in tokens: context management offloads, clears and
    /// summarizes to stay under it (default 128000).
    #[arg(long)]
    context_window: Option<u64>,
    /// Stop once this many tokens (prompt + completion, summed over calls) are used.
    #[arg(long)]
    token_budget: Option<u64>,
    /// Where large tool outputs are offloaded (default: a fresh temporary folder).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// MCP servers, as JSON `{"mcpServers": {"name": {"command", "args", "env"} | {"url"}}}`;
    /// their tools are offered as `mcp__<server>__<tool>`.
    #[arg(long)]
    mcp_config: Option<PathBuf>,
}

fn main() -> ExitCode {
    nab_protocol::logging::init();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("nab-agent: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Run(args) => match runtime.block_on(run(args)) {
            Ok(ExitReason::FinalAnswer) => ExitCode::SUCCESS,
            Ok(ExitReason::Error) => ExitCode::from(1),
            Ok(_) => ExitCode::from(3),
            Err(e) => {
                eprintln!("nab-agent: {e:#}");
                ExitCode::from(2)
            }
        },
    }
}

async fn run(mut args: RunArgs) -> anyhow::Result<ExitReason> {
    // Owned from here on and moved into the history: the only copy of the instruction.
    let instruction = match (args.instruction.take(), &args.instruction_file) {
        (Some(text), None) => text,
        (None, Some(path)) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read --instruction-file {}", path.display()))?,
        _ => bail!("give exactly one of --instruction or --instruction-file"),
    };
    if instruction.trim().is_empty() {
        bail!("the instruction is empty");
    }
    if !args.workspace.is_dir() {
        bail!("--workspace {} is not a folder", args.workspace.display());
    }
    let endpoint = Endpoint::parse(&args.base_url)?;
    let mut client_cfg = ClientConfig::new(endpoint);
    client_cfg.api_key = ["NAB_API_KEY", "OPENAI_API_KEY"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()));

    // The default state folder lives in the system temp dir, never inside the workspace,
    // and is kept after the run so offloaded outputs stay readable.
    let state_dir = match &args.state_dir {
        Some(dir) => dir.clone(),
        None => tempfile::Builder::new()
            .prefix("nab-agent-state-")
            .tempdir()
            .context("cannot create a temporary --state-dir")?
            .keep(),
    };
    std::fs::create_dir_all(&state_dir)
        .with_context(|| format!("cannot create --state-dir {}", state_dir.display()))?;

    let events = match &args.events {
        Some(path) => EventSink::to_file(path)
            .with_context(|| format!("cannot open --events {}", path.display()))?,
        None => EventSink::none(),
    };
    let mut config = AgentConfig::new(args.workspace.clone(), args.model.clone(), state_dir);
    config.max_steps = args.max_steps;
    config.context_window = args.context_window;
    config.token_budget = args.token_budget;

    let mcp = match &args.mcp_config {
        Some(path) => Some(McpConfig::load(path)?),
        None => None,
    };

    let client = LlmClient::new(client_cfg);
    let summarizer = Arc::new(ClientSummarizer::new(client.clone(), args.model.clone()));
    let mut agent = Agent::new(config, client, events)
        .with_context(|| format!("cannot use --workspace {}", args.workspace.display()))?
        .with_display(Display::auto());
    let registry = agent.registry().clone();
    agent =
        agent.with_context_manager(Box::new(ThreeTier::new(summarizer).with_registry(registry)));
    if let Some(mcp) = mcp {
        agent = agent.with_mcp(mcp, McpTimings::default());
    }
    let outcome = agent.run(instruction).await;
    if let Some(msg) = &outcome.message {
        eprintln!("nab-agent: stopped ({}): {msg}", outcome.exit_reason);
    }
    Ok(outcome.exit_reason)
}
