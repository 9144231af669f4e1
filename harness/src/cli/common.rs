//! Pieces `run` and `validate` share: loading the suite before Docker, and the runner set-up.

use nab_harness::run::Connected;
use nab_harness::task::pinned::pin_suite;
use nab_harness::task::{Task, load_suite};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loads and checks the suite and pins each task's test set from `tests.lock`; on any
/// problem prints them all and nothing else happens (no Docker connection, no container).
/// A task the lock does not pin gets a warning.
pub fn load_or_report(tasks: &Path, ids: &[String]) -> Option<Vec<Arc<Task>>> {
    let mut loaded = match load_suite(tasks, ids) {
        Ok(t) => t,
        Err(e) => {
            eprint!("{e}");
            return None;
        }
    };
    match pin_suite(tasks, &mut loaded) {
        Ok(warnings) => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
        }
        Err(e) => {
            eprintln!("{e}");
            return None;
        }
    }
    Some(loaded.into_iter().map(Arc::new).collect())
}

pub fn default_out(prefix: &str, run_id: &str) -> PathBuf {
    PathBuf::from("runs").join(format!("{prefix}{run_id}"))
}

/// `--engine URL` (repeatable), shared by the commands that run containers.
#[derive(Debug, Clone, clap::Args)]
pub struct EngineOpts {
    /// A Docker engine to run trials on (or Podman's Docker-compatible service, e.g.
    /// unix:///run/podman/podman.sock); repeat it for a pool. unix:///path.sock,
    /// tcp://host:port (TLS when DOCKER_TLS_VERIFY is set, certificates from
    /// DOCKER_CERT_PATH), https://host:port, ssh://[user@]host[:port] (`docker system
    /// dial-stdio` over ssh, or $NAB_SSH), or `default` (DOCKER_HOST, else the local
    /// socket: what nab uses without --engine). Options after `#`: slots=N (trials at once
    /// on it; default -j), tls=DIR (ca.pem, cert.pem, key.pem for this engine), and remote
    /// or local: a remote engine (the default for tcp://, https:// and ssh://) sees none of this
    /// machine's files, so inputs are copied in and the gateway's and MCP servers' sockets
    /// relayed through its API; a local one gets them as bind mounts. See
    /// docs/src/guide/scale-out.md, "A pool of Docker engines" and "Podman".
    #[arg(long = "engine", value_name = "URL")]
    pub engines: Vec<nab_harness::env::sandbox::engine::url::EngineSpec>,
}

impl EngineOpts {
    /// Connects every engine (an unreachable one is an error naming it: nothing has run).
    pub async fn connect(&self, jobs: usize) -> anyhow::Result<Connected> {
        Connected::connect(&self.engines, jobs).await
    }
}

/// How a finished `nab run` or `nab sweep` ends: the lost engines said, then exit 1 when
/// every engine was lost, the interrupted exit code (continue with `resume`), 1 when a
/// trial was an infrastructure error, the cost-limit exit code when `--max-cost-usd` kept
/// trials from starting (said on stderr), else 0.
pub fn finish(
    end: nab_harness::run::RunEnd<'_>,
    errors: usize,
    cost_limit: Option<&nab_harness::run::CostLimit>,
    resume: &str,
) -> std::process::ExitCode {
    use nab_harness::exit::{COST_LIMIT, FAILED, INTERRUPTED, SUCCESS, exit};
    report_engines(end.lost_engines, end.no_engine, resume);
    if end.no_engine.is_some() {
        return exit(FAILED);
    }
    if end.interrupted {
        eprintln!("interrupted; continue with: {resume}");
        return exit(INTERRUPTED);
    }
    let limited = cost_limit.and_then(|l| l.summary(resume));
    if let Some(line) = &limited {
        eprintln!("{line}");
    }
    exit(if errors > 0 {
        FAILED
    } else if limited.is_some() {
        COST_LIMIT
    } else {
        SUCCESS
    })
}

/// The one line that ends a run whose provider refused its configuration (a bad key, a
/// model it does not know), and the exit code: bad input, since nothing was scored.
pub fn provider_config_stop(why: &str, resume: &str) -> std::process::ExitCode {
    eprintln!(
        "error: the run stopped: the provider refused its configuration ({why}); check --model (model name, base URL) and the API key (NAB_API_KEY, ANTHROPIC_API_KEY or --api-key-env). No trial was scored on it; after the fix continue with: {resume}"
    );
    nab_harness::exit::exit(nab_harness::exit::BAD_INPUT)
}

/// Says which engines were lost; with every engine lost, the error that stops the run.
pub fn report_engines(lost: &[(String, String)], no_engine: Option<&str>, resume: &str) {
    for (name, why) in lost {
        eprintln!(
            "engine {name} was lost during the run ({why}); its trials were retried on the others"
        );
    }
    if let Some(why) = no_engine {
        eprintln!(
            "error: no Docker engine is left ({why}); the run stopped. Trials not run are not recorded; continue with: {resume}"
        );
    }
}
