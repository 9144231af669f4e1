//! `nab selftest`: the built-in hostile agents against the harness, one trial each on real
//! Docker; a table of attack, expected and observed; exit 1 when any attack was not caught.

use super::common::default_out;
use nab_harness::env::sandbox::DockerBackend;
use nab_harness::exit::{FAILED, INTERRUPTED, exit};
use nab_harness::run::new_run_id;
use nab_harness::selftest::Options;
use nab_harness::selftest::corpus::Corpus;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

#[derive(Debug, clap::Args)]
#[command(
    long_about = "Runs the built-in corpus of hostile agents (issue 11) against built-in tasks, \
one trial each, through the same runner, sandbox, gateway and verifier as `nab run`. \
Each attack tries to pass without doing the task, or to turn its failure into an \
infrastructure error: failures made into errors, reading expected data, forged runner \
reports and code that goes after the runner (in Python, C, Java, JavaScript, Go, Rust and \
shell), tampering and planted byte code, requirements met without the call, forbidden \
gateway requests, and one escape per sandbox flag. Tasks with an `environment:` (the \
language targets) get their images built first. Prints a table (class, \
attack, expected, observed, result) and exits 1 when any attack fooled the harness \
(passed, or an error, where a failure was expected) or ended otherwise than expected; \
controls (honest agents) must pass. `--list` shows every case."
)]
pub struct Args {
    /// Trials run at once.
    #[arg(short = 'j', long = "jobs", default_value_t = 2)]
    jobs: usize,
    /// Run folder (default runs/selftest-<run id>): the corpus as run, results.jsonl and
    /// each case's logs under trials/<task>/<case>/.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run id (default: time-based). Labels every container as nab.run=<id>.
    #[arg(long)]
    run_id: Option<String>,
    /// List the cases (id, class, attack) and exit.
    #[arg(long)]
    list: bool,
    /// The engine to attack (default: DOCKER_HOST, else the local socket), as `nab run
    /// --engine` takes it: e.g. unix:///run/podman/podman.sock for Podman, or a remote
    /// engine (`#remote`, tcp://, ssh://).
    #[arg(long, value_name = "URL")]
    engine: Option<nab_harness::env::sandbox::engine::url::EngineSpec>,
    /// Case ids or classes to run (default: all): control, agent-failure, expected-data,
    /// runner-forgery, tampering, requirements, gateway, sandbox.
    cases: Vec<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let corpus = Corpus::builtin()?.select(&args.cases)?;
    if args.list {
        let w = corpus.cases.iter().map(|c| c.id.len()).max().unwrap_or(0);
        for c in &corpus.cases {
            println!("{:<14}  {:<w$}  {}", c.class.as_str(), c.id, c.attack);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let docker = match &args.engine {
        Some(e) => nab_harness::env::sandbox::connect_to(&e.addr).await?,
        None => nab_harness::env::sandbox::connect().await?,
    };
    let image = super::ensure_image(&docker, false).await?;
    let run_id = args.run_id.unwrap_or_else(new_run_id);
    let out = args
        .out
        .unwrap_or_else(|| default_out("selftest-", &run_id));
    let started = std::time::Instant::now();
    // A remote engine (`#remote`, tcp://, ssh://) is attacked as `nab run` uses it: inputs
    // copied in, sockets relayed, quotas made on its machine.
    let backend = match args.engine.as_ref().filter(|e| e.remote) {
        Some(_) => {
            let relay = nab_harness::trial::model::locate_binary("nab-relay")?;
            let remote = nab_harness::env::sandbox::Remote::new(Some(relay));
            DockerBackend::remote(docker.clone(), remote)
        }
        None => DockerBackend::new(docker.clone()),
    };
    let opts = Options {
        backend: Arc::new(backend),
        task_images: Some(docker),
        image,
        out: out.clone(),
        run_id,
        jobs: args.jobs,
        progress: nab_harness::run::progress::for_stderr(),
    };
    let report = nab_harness::selftest::run(&corpus, opts, CancellationToken::new()).await?;
    print!(
        "{}",
        nab_harness::selftest::outcome::table(&report.rows, &report.trials_dir)
    );
    let bad = report.not_caught();
    println!(
        "\n{} case(s) in {:.1} s: {}; logs in {}",
        report.rows.len(),
        started.elapsed().as_secs_f64(),
        if bad == 0 {
            "every attack caught, every control passed".to_owned()
        } else {
            format!("{bad} NOT caught")
        },
        out.display()
    );
    if report.interrupted {
        return Ok(exit(INTERRUPTED));
    }
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        exit(FAILED)
    })
}
