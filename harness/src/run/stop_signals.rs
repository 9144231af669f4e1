//! What asks nab to stop a run: Ctrl-C (SIGINT), and SIGTERM, which `kill`, `docker stop`,
//! a CI runner cancelling a job and Slurm at a job's time limit send. Both stop it the same
//! way: running trials are stopped and their containers removed, finished ones kept; a
//! second signal of either kind ends nab at once.
//!
//! Outside a run loop, either signal ends nab at once, with the interrupted code (130).
//! Tokio's handler, once installed, stays for the process's life and only wakes listeners,
//! so without more a signal that came after the loop (while nab swept the engines or wrote
//! the report) would have been taken and dropped. While no [`StopSignals`] is alive, a
//! handler of signal-hook's ends the process instead (`_exit`, safe in a signal handler):
//! what is on disk stays, and the results file has every trial already recorded.

use futures::future::select_all;
use signal_hook::consts::signal::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use tokio::signal::unix::{Signal, SignalKind, signal};

/// Read in the signal handler: `true` while nothing listens, so the signal ends nab.
static UNHEARD: AtomicBool = AtomicBool::new(true);
/// How many [`StopSignals`] are alive; `UNHEARD` follows it under this lock.
static LISTENING: Mutex<usize> = Mutex::new(0);

/// Installs, once per process and before tokio's, the handler that ends nab on SIGINT or
/// SIGTERM while `UNHEARD` says nothing listens. Until the first [`StopSignals`] the
/// signals end nab by their default action; this keeps them ending it after.
fn end_when_unheard() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        for sig in [SIGINT, SIGTERM] {
            let code = i32::from(crate::exit::INTERRUPTED);
            if let Err(e) = signal_hook::flag::register_conditional_shutdown(sig, code, &UNHEARD)
            {
                tracing::warn!(signal = sig, error = %e, "a signal after the run loop may go unheeded");
            }
        }
    });
}

/// Counts a listener in (`+1`) or out (`-1`), and sets `UNHEARD` to match.
fn count_listener(delta: isize) {
    let mut n = LISTENING.lock().unwrap_or_else(|p| p.into_inner());
    *n = n.saturating_add_signed(delta);
    UNHEARD.store(*n == 0, Ordering::SeqCst);
}

/// Listens for SIGINT and SIGTERM from when it is made to when it is dropped (a signal
/// between two waits is not lost). Once it is dropped, and no other is alive, either
/// signal ends nab again (with 130).
pub struct StopSignals {
    listeners: Vec<Signal>,
}

impl StopSignals {
    /// Starts listening. A signal that cannot be listened for is left to its default (it
    /// ends nab), which is what happened to both before.
    pub fn listen() -> StopSignals {
        end_when_unheard();
        let listeners: Vec<Signal> = [SignalKind::interrupt(), SignalKind::terminate()]
            .into_iter()
            .filter_map(|kind| signal(kind).ok())
            .collect();
        // Only a listener that hears both may take the signals' default away.
        if listeners.len() == 2 {
            count_listener(1);
        }
        StopSignals { listeners }
    }

    /// The next SIGINT or SIGTERM; never, when neither is listened for.
    pub async fn next(&mut self) {
        if self.listeners.is_empty() {
            return std::future::pending().await;
        }
        let waits = self.listeners.iter_mut().map(|s| Box::pin(s.recv()));
        if select_all(waits).await.0.is_none() {
            // The runtime's signal driver is gone (nab is ending): nothing more will come.
            std::future::pending::<()>().await;
        }
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        if self.listeners.len() == 2 {
            count_listener(-1);
        }
    }
}
