//! Measures nab-agent's cold start: from spawning the process to the first byte of its first
//! model request arriving at a local server.
//!
//! `cargo run --release -p nab-agent --example cold_start [-- PATH_TO_NAB_AGENT [RUNS]]`
//! (default binary: `nab-agent` next to this example's own folder, i.e. the same profile).

use std::io::Read;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let bin = match args.next() {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            let exe = std::env::current_exe()?;
            // target/<profile>/examples/cold_start → target/<profile>/nab-agent
            exe.parent()
                .and_then(|p| p.parent())
                .map(|p| p.join("nab-agent"))
                .ok_or_else(|| anyhow::anyhow!("cannot locate nab-agent"))?
        }
    };
    let runs: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(20);
    anyhow::ensure!(
        bin.is_file(),
        "{} does not exist; build it first (cargo build --release -p nab-agent)",
        bin.display()
    );
    let ws = tempfile::tempdir()?;
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}", listener.local_addr()?);
        let started = Instant::now();
        let mut child = Command::new(&bin)
            .args(["run", "--workspace"])
            .arg(ws.path())
            .args([
                "--instruction",
                "say hi",
                "--base-url",
                &url,
                "--model",
                "m",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let (mut conn, _) = listener.accept()?;
        let mut byte = [0u8; 1];
        conn.read_exact(&mut byte)?;
        samples.push(started.elapsed());
        let _ = child.kill();
        let _ = child.wait();
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "cold start (spawn → first request byte), {runs} runs: min {:.1} ms, median {:.1} ms, max {:.1} ms",
        ms(samples[0]),
        ms(samples[runs / 2]),
        ms(samples[runs - 1])
    );
    Ok(())
}
