//! An agent's own-time limit: the agent phase's wall time less the time its gateway waited
//! for the model.

use nab_gateway::ModelClock;
use std::time::{Duration, Instant};

/// Runs the agent's `exec` until it ends, killing it (through `kill`) once its own time —
/// wall time since `started` less the time its gateway waited for the model (`clock`) —
/// reaches `limit`. The exec's own deadline is the phase's wall-clock cap. Returns the
/// exec's outcome and whether the own-time limit ended it.
///
/// Why: a trial's time limit measures the agent. Time spent waiting for a slow or
/// overloaded endpoint (its latency, a provider's retries and backoff) is the provider's,
/// and counting it would make the same agent lose trials on a slow endpoint that it finishes
/// on a fast one. The cap bounds what a slow endpoint (or an agent that keeps calls open)
/// can cost.
pub(crate) async fn limit<T, F, K, E>(
    exec: F,
    clock: &ModelClock,
    started: Instant,
    limit: Duration,
    kill: impl Fn() -> K,
) -> Result<(T, bool), E>
where
    F: std::future::Future<Output = Result<T, E>>,
    K: std::future::Future<Output = Result<(), E>>,
{
    tokio::pin!(exec);
    let mut killed = false;
    loop {
        // Own time only grows as fast as the wall clock, so sleeping for what is left of
        // it never oversleeps the limit; model time can only push the end further out.
        let own = started.elapsed().saturating_sub(clock.total());
        let left = limit.saturating_sub(own);
        tokio::select! {
            out = &mut exec => return Ok((out?, killed)),
            _ = tokio::time::sleep(left), if !killed => {
                let own = started.elapsed().saturating_sub(clock.total());
                if own >= limit {
                    killed = true;
                    kill().await?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// An "agent" that runs until killed (or `run_for`), and records the kill.
    async fn agent(run_for: Duration, killed: &AtomicBool) -> Result<&'static str, String> {
        let start = Instant::now();
        while start.elapsed() < run_for {
            if killed.load(Ordering::SeqCst) {
                return Ok("killed");
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Ok("finished")
    }

    #[tokio::test]
    async fn the_limit_counts_own_time_only() {
        let limit = Duration::from_millis(200);
        // No model time: killed at the limit.
        let clock = ModelClock::new();
        let killed = AtomicBool::new(false);
        let started = Instant::now();
        let (out, hit) = limit_run(&clock, &killed, started, limit, Duration::from_secs(5)).await;
        assert_eq!((out, hit), ("killed", true));
        let took = started.elapsed();
        assert!(
            took >= limit && took < Duration::from_millis(1500),
            "{took:?}"
        );

        // 300 ms of model time: an agent that runs 400 ms of wall time (100 ms of its own)
        // is not killed at 200 ms.
        let clock = ModelClock::new();
        let killed = AtomicBool::new(false);
        let busy = clock.enter();
        let started = Instant::now();
        let release = async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            drop(busy);
        };
        let (run, ()) = tokio::join!(
            limit_run(&clock, &killed, started, limit, Duration::from_millis(400)),
            release
        );
        assert_eq!(run, ("finished", false));
    }

    async fn limit_run(
        clock: &ModelClock,
        killed: &AtomicBool,
        started: Instant,
        limit: Duration,
        run_for: Duration,
    ) -> (&'static str, bool) {
        let kill = || async {
            killed.store(true, Ordering::SeqCst);
            Ok::<(), String>(())
        };
        super::limit(agent(run_for, killed), clock, started, limit, kill)
            .await
            .unwrap()
    }
}
