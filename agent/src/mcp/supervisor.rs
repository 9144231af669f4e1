//! One task per server: start it, watch it, restart it, or give up on it.
//!
//! ```text
//! start ─► ready ─► (ping every 30 s while idle) ─► death ─► tools unregistered, tree ended
//!   ▲                                                  │
//!   └──── restart after 1 s, 2 s, 4 s ◄────────────────┤ (count reset after 60 s stable)
//!                                                      └► give up after 3 failed restarts
//! ```
//! A death is the process exiting, the transport closing, or two pings in a row unanswered.
//! All waiting is on tokio's clock, so the backoff is tested with a paused clock.

use super::link::{Launcher, Link};
use super::{EventSink, Timings};
use nab_protocol::EventKind;
use rmcp::model::Tool;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use tokio::time::Instant;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Starting,
    Ready,
    /// Between a death and the next start.
    Down,
    /// No more restarts; the message (with the ring buffer's tail) was given to the model.
    GaveUp(String),
    Stopped,
}

/// What the rest of the agent sees of one server.
pub struct ServerShared {
    pub name: String,
    link: Mutex<Option<Arc<dyn Link>>>,
    tools: Mutex<Vec<Tool>>,
    status: watch::Sender<Status>,
    in_flight: AtomicUsize,
    /// Bumped (manager-wide) whenever any server's tool list changes.
    generation: Arc<AtomicU64>,
    notices: Arc<Mutex<Vec<String>>>,
    /// Every process ID any incarnation of this server had (tests use it to prove none survive).
    pids: Mutex<Vec<i32>>,
}

impl ServerShared {
    pub fn new(
        name: String,
        generation: Arc<AtomicU64>,
        notices: Arc<Mutex<Vec<String>>>,
    ) -> Arc<ServerShared> {
        Arc::new(ServerShared {
            name,
            link: Mutex::new(None),
            tools: Mutex::new(Vec::new()),
            status: watch::channel(Status::Starting).0,
            in_flight: AtomicUsize::new(0),
            generation,
            notices,
            pids: Mutex::new(Vec::new()),
        })
    }

    pub fn status(&self) -> Status {
        self.status.borrow().clone()
    }

    pub fn subscribe(&self) -> watch::Receiver<Status> {
        self.status.subscribe()
    }

    pub fn tools(&self) -> Vec<Tool> {
        lock(&self.tools).clone()
    }

    pub fn pids(&self) -> Vec<i32> {
        lock(&self.pids).clone()
    }

    pub fn link(&self) -> Option<Arc<dyn Link>> {
        lock(&self.link).clone()
    }

    /// Marks a call in progress for as long as the guard lives (a busy server is not pinged).
    pub fn busy(self: &Arc<Self>) -> BusyGuard {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        BusyGuard(self.clone())
    }

    fn publish(&self, link: Option<Arc<dyn Link>>, tools: Vec<Tool>) {
        *lock(&self.link) = link;
        *lock(&self.tools) = tools;
        self.generation.fetch_add(1, Ordering::SeqCst);
    }

    fn set_status(&self, s: Status) {
        self.status.send_replace(s);
    }
}

pub struct BusyGuard(Arc<ServerShared>);

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Why a live link stopped being watched.
enum End {
    Died(String),
    Stop,
}

/// How one start of a server ended.
enum Served {
    /// The agent stopped; the server was ended.
    Stopped,
    /// It failed to become ready, or died; `ready_at` is when it became ready, if it did.
    Died {
        why: String,
        ready_at: Option<Instant>,
    },
}

/// Runs one server for the agent's life: starts it, serves it while it lives, restarts it
/// with backoff when it dies, and gives up (telling the model why) after too many failures.
pub async fn supervise(
    launcher: Arc<dyn Launcher>,
    shared: Arc<ServerShared>,
    timings: Timings,
    events: EventSink,
    mut stop: watch::Receiver<bool>,
) {
    let name = shared.name.clone();
    let emit = |action: &str, detail: Option<String>| {
        events(EventKind::Mcp {
            server: name.clone(),
            action: action.into(),
            detail,
        })
    };
    let mut failures: u32 = 0;
    let mut attempt: u32 = 0;
    loop {
        attempt += 1;
        shared.set_status(Status::Starting);
        emit("start", Some(format!("attempt {attempt}")));
        let launched = tokio::select! {
            r = launcher.launch() => Some(r),
            _ = stop.wait_for(|s| *s) => None,
        };
        let Some(launched) = launched else {
            launcher.abort().await;
            shared.set_status(Status::Stopped);
            return;
        };
        let (why, ready_at) = match launched {
            Ok(link) => match serve(link, &shared, &timings, &events, &mut stop, &emit).await {
                Served::Stopped => {
                    shared.set_status(Status::Stopped);
                    return;
                }
                Served::Died { why, ready_at } => (why, ready_at),
            },
            Err(e) => (format!("failed to start: {e}"), None),
        };
        emit("death", Some(why.clone()));
        shared.set_status(Status::Down);
        if ready_at.is_some_and(|t| t.elapsed() >= timings.stable_after) {
            failures = 0;
        }
        failures += 1;
        if failures as usize > timings.backoff.len() {
            let tail = launcher.ring().tail(timings.tail_lines);
            let msg = give_up_message(&name, timings.backoff.len(), &why, &tail);
            emit("give_up", Some(msg.clone()));
            lock(&shared.notices).push(msg.clone());
            shared.set_status(Status::GaveUp(msg));
            return;
        }
        let delay = timings.backoff[failures as usize - 1];
        emit(
            "restart",
            Some(format!(
                "in {} s (restart {failures} of {})",
                delay.as_secs_f64(),
                timings.backoff.len()
            )),
        );
        tokio::select! {
            _ = tokio::time::sleep(delay) => {}
            _ = stop.wait_for(|s| *s) => { shared.set_status(Status::Stopped); return; }
        }
    }
}

/// Serves one started server: lists its tools, publishes them and watches it until it dies
/// or the agent stops; the link is shut down either way.
async fn serve(
    link: Arc<dyn Link>,
    shared: &Arc<ServerShared>,
    timings: &Timings,
    events: &EventSink,
    stop: &mut watch::Receiver<bool>,
    emit: &impl Fn(&str, Option<String>),
) -> Served {
    lock(&shared.pids).extend(link.pids());
    let listed = tokio::time::timeout(timings.handshake_timeout, link.list_tools()).await;
    let tools = match listed {
        Ok(Ok(tools)) => tools,
        Ok(Err(e)) => {
            link.shutdown().await;
            return Served::Died {
                why: format!("tools/list failed: {e}"),
                ready_at: None,
            };
        }
        Err(_) => {
            link.shutdown().await;
            return Served::Died {
                why: "tools/list was not answered".into(),
                ready_at: None,
            };
        }
    };
    emit("ready", Some(format!("{} tools", tools.len())));
    shared.publish(Some(link.clone()), tools);
    shared.set_status(Status::Ready);
    let ready_at = Some(Instant::now());
    let end = watch_link(&*link, shared, timings, events, stop).await;
    shared.publish(None, Vec::new());
    link.shutdown().await;
    match end {
        End::Stop => Served::Stopped,
        End::Died(why) => Served::Died { why, ready_at },
    }
}

/// What the model is told when a server is given up: why, and the last lines it printed.
fn give_up_message(name: &str, restarts: usize, why: &str, tail: &[String]) -> String {
    let mut msg = format!(
        "MCP server `{name}` stopped working and was given up after {restarts} restarts; its tools \
         (mcp__{name}__*) are no longer available. Last failure: {why}."
    );
    if tail.is_empty() {
        msg.push_str(" It printed nothing on stderr or as junk on stdout.");
    } else {
        msg.push_str(&format!(
            "\nLast {} lines it printed:\n{}",
            tail.len(),
            tail.join("\n")
        ));
    }
    msg
}

/// Watches a ready server until it dies or the agent stops: exit/close at once, pings while
/// idle, tool re-listing after `list_changed`.
async fn watch_link(
    link: &dyn Link,
    shared: &Arc<ServerShared>,
    timings: &Timings,
    events: &EventSink,
    stop: &mut watch::Receiver<bool>,
) -> End {
    let list_changed = link.list_changed();
    let mut ticker = tokio::time::interval_at(
        Instant::now() + timings.ping_interval,
        timings.ping_interval,
    );
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut missed = 0u32;
    enum Wake {
        ListChanged,
        Tick,
    }
    loop {
        let wake = tokio::select! {
            why = link.closed() => return End::Died(why),
            _ = stop.wait_for(|s| *s) => return End::Stop,
            _ = list_changed.notified() => Wake::ListChanged,
            _ = ticker.tick() => Wake::Tick,
        };
        match wake {
            Wake::ListChanged => {
                match tokio::time::timeout(timings.handshake_timeout, link.list_tools()).await {
                    Ok(Ok(tools)) => {
                        events(EventKind::Mcp {
                            server: shared.name.clone(),
                            action: "tools_changed".into(),
                            detail: Some(format!("{} tools", tools.len())),
                        });
                        *lock(&shared.tools) = tools;
                        shared.generation.fetch_add(1, Ordering::SeqCst);
                    }
                    Ok(Err(e)) => {
                        tracing::warn!("MCP server `{}`: re-listing tools failed: {e}", shared.name)
                    }
                    Err(_) => {
                        tracing::warn!("MCP server `{}`: re-listing tools timed out", shared.name)
                    }
                }
            }
            Wake::Tick => {
                if shared.in_flight.load(Ordering::SeqCst) > 0 {
                    // Busy with a call: the call's own timeout covers it.
                    missed = 0;
                    continue;
                }
                let answered = tokio::select! {
                    r = tokio::time::timeout(timings.ping_timeout, link.ping()) => matches!(r, Ok(Ok(()))),
                    why = link.closed() => return End::Died(why),
                    _ = stop.wait_for(|s| *s) => return End::Stop,
                };
                if answered {
                    missed = 0;
                } else {
                    missed += 1;
                    if missed >= timings.missed_pings {
                        return End::Died(format!("{missed} pings in a row were not answered"));
                    }
                }
            }
        }
    }
}
