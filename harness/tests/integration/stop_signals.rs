//! SIGTERM ends nab outside a run loop, with the interrupted code, after a loop as before one:
//! tokio's handler stays installed once a loop has listened, and without `StopSignals`
//! giving the default back, a signal sent while nab swept the engines or wrote the report
//! was taken and dropped. Each case runs in a child process (this test binary again, running
//! the ignored `signal_child` below), which the test signals.

use nab_harness::run::stop_signals::StopSignals;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::io::{BufRead, BufReader};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Names the child's case; unset, `signal_child` does nothing.
const CASE: &str = "NAB_STOP_SIGNALS_CASE";

/// The child: `after` listens, stops listening (a run loop that ended) and waits; `again`
/// does the same, then listens a second time and says whether the signal came to it.
#[test]
#[ignore = "the child process of the tests below, which run it"]
fn signal_child() {
    let Ok(case) = std::env::var(CASE) else {
        return;
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        drop(StopSignals::listen());
        let mut second = (case == "again").then(StopSignals::listen);
        // On a line of its own: libtest's "test … " has no newline before it.
        println!("\nready");
        match &mut second {
            Some(stop) => match tokio::time::timeout(Duration::from_secs(20), stop.next()).await {
                Ok(()) => println!("\nheard"),
                Err(_) => println!("not heard"),
            },
            None => {
                tokio::time::sleep(Duration::from_secs(20)).await;
                println!("still running");
            }
        }
    });
}

/// Runs `signal_child` with `case`, sends it SIGTERM once it is ready, and returns how it
/// ended and what it printed.
fn signalled(case: &str) -> (ExitStatus, String) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "stop_signals::signal_child",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CASE, case)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut printed = String::new();
    let ready_by = Instant::now() + Duration::from_secs(30);
    loop {
        let left = ready_by.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                printed.push_str(&line);
                printed.push('\n');
                if line == "ready" {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("the child never got ready; it printed:\n{printed}");
            }
        }
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let end_by = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > end_by {
            let _ = child.kill();
            panic!("the child was still running 10 s after SIGTERM; it printed:\n{printed}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(1)) {
        printed.push_str(&line);
        printed.push('\n');
    }
    (status, printed)
}

#[test]
fn sigterm_after_the_loop_stopped_listening_ends_the_process_with_the_interrupted_code() {
    let (status, printed) = signalled("after");
    assert_eq!(
        status.code(),
        Some(i32::from(nab_harness::exit::INTERRUPTED)),
        "{status:?}; printed:\n{printed}"
    );
    assert!(!printed.contains("still running"), "{printed}");
}

#[test]
fn sigterm_goes_to_the_loop_that_listens_again() {
    let (status, printed) = signalled("again");
    assert!(status.success(), "{status:?}; printed:\n{printed}");
    assert!(printed.lines().any(|l| l == "heard"), "{printed}");
}
