//! What asks nab to stop a run: Ctrl-C (SIGINT), and SIGTERM, which `kill`, `docker stop`,
//! a CI runner cancelling a job and Slurm at a job's time limit send. Both stop it the same
//! way: running trials are stopped and their containers removed, finished ones kept; a
//! second signal of either kind ends nab at once.

use futures::future::select_all;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// Listens for SIGINT and SIGTERM from when it is made to when it is dropped (a signal
/// between two waits is not lost).
pub struct StopSignals {
    listeners: Vec<Signal>,
}

impl StopSignals {
    /// Starts listening. A signal that cannot be listened for is left to its default (it
    /// ends nab), which is what happened to both before.
    pub fn listen() -> StopSignals {
        let listeners = [SignalKind::interrupt(), SignalKind::terminate()]
            .into_iter()
            .filter_map(|kind| signal(kind).ok())
            .collect();
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
