//! The supervisor's timing on tokio's paused clock: restart backoff 1, 2, 4 s, give-up after
//! three failed restarts, the count reset after 60 s of stable running, idle pings every
//! 30 s (none while a call is running), and death after two missed pings. No real sleeping:
//! the clock jumps straight to each timer.

use async_trait::async_trait;
use nab_agent::mcp::EventSink;
use nab_agent::mcp::link::{Launcher, Link};
use nab_agent::mcp::supervisor::{Status, supervise};
use nab_agent::{LinkError, RingBuffer, ServerShared, Timings};
use nab_protocol::EventKind;
use rmcp::model::{CallToolResult, JsonObject, Tool};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

/// How a fake server behaves once launched.
#[derive(Clone, Copy)]
enum Behaviour {
    /// `launch` fails.
    FailToStart,
    /// Runs this long, then its process "exits".
    DieAfter(Duration),
    /// Never exits; answers pings only while `answer_pings` is true.
    Live,
}

struct FakeLauncher {
    behaviour: Behaviour,
    starts: Arc<Mutex<Vec<Instant>>>,
    pings: Arc<Mutex<Vec<Instant>>>,
    answer_pings: Arc<std::sync::atomic::AtomicBool>,
    ring: RingBuffer,
}

struct FakeLink {
    behaviour: Behaviour,
    born: Instant,
    pings: Arc<Mutex<Vec<Instant>>>,
    answer_pings: Arc<std::sync::atomic::AtomicBool>,
    list_changed: Arc<Notify>,
}

#[async_trait]
impl Launcher for FakeLauncher {
    async fn launch(&self) -> Result<Arc<dyn Link>, LinkError> {
        self.starts.lock().unwrap().push(Instant::now());
        self.ring.push(
            "stderr",
            &format!("start #{}", self.starts.lock().unwrap().len()),
        );
        match self.behaviour {
            Behaviour::FailToStart => Err(LinkError::Spawn {
                command: "fake-server".into(),
                source: std::io::Error::other("exec failed"),
            }),
            b => Ok(Arc::new(FakeLink {
                behaviour: b,
                born: Instant::now(),
                pings: self.pings.clone(),
                answer_pings: self.answer_pings.clone(),
                list_changed: Arc::new(Notify::new()),
            })),
        }
    }
    fn ring(&self) -> RingBuffer {
        self.ring.clone()
    }
}

#[async_trait]
impl Link for FakeLink {
    async fn list_tools(&self) -> Result<Vec<Tool>, LinkError> {
        Ok(vec![Tool::new("t", "a tool", Arc::new(JsonObject::new()))])
    }
    async fn call_tool(
        &self,
        _tool: &str,
        _a: Option<JsonObject>,
    ) -> Result<CallToolResult, LinkError> {
        Err(LinkError::NotInitialized)
    }
    async fn ping(&self) -> Result<(), LinkError> {
        self.pings.lock().unwrap().push(Instant::now());
        if self.answer_pings.load(Ordering::SeqCst) {
            Ok(())
        } else {
            std::future::pending().await
        }
    }
    async fn closed(&self) -> String {
        match self.behaviour {
            Behaviour::DieAfter(d) => {
                tokio::time::sleep_until(self.born + d).await;
                "process exited (exit status: 1)".into()
            }
            _ => std::future::pending().await,
        }
    }
    async fn shutdown(&self) {}
    fn list_changed(&self) -> Arc<Notify> {
        self.list_changed.clone()
    }
}

/// (when, action, detail) of every `mcp` event.
type EventLog = Arc<Mutex<Vec<(Instant, String, Option<String>)>>>;

struct Harness {
    shared: Arc<ServerShared>,
    starts: Arc<Mutex<Vec<Instant>>>,
    pings: Arc<Mutex<Vec<Instant>>>,
    answer_pings: Arc<std::sync::atomic::AtomicBool>,
    events: EventLog,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    notices: Arc<Mutex<Vec<String>>>,
}

fn start(behaviour: Behaviour) -> Harness {
    let starts = Arc::new(Mutex::new(Vec::new()));
    let pings = Arc::new(Mutex::new(Vec::new()));
    let answer_pings = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let launcher = Arc::new(FakeLauncher {
        behaviour,
        starts: starts.clone(),
        pings: pings.clone(),
        answer_pings: answer_pings.clone(),
        ring: RingBuffer::default(),
    });
    let notices = Arc::new(Mutex::new(Vec::new()));
    let shared = ServerShared::new("fake".into(), Arc::new(AtomicU64::new(0)), notices.clone());
    let events = Arc::new(Mutex::new(Vec::new()));
    let ev = events.clone();
    let sink: EventSink = Arc::new(move |e| {
        if let EventKind::Mcp { action, detail, .. } = e {
            ev.lock().unwrap().push((Instant::now(), action, detail));
        }
    });
    let (stop, stop_rx) = watch::channel(false);
    let task = tokio::spawn(supervise(
        launcher,
        shared.clone(),
        Timings::default(),
        sink,
        stop_rx,
    ));
    Harness {
        shared,
        starts,
        pings,
        answer_pings,
        events,
        stop,
        task,
        notices,
    }
}

fn gaps(times: &[Instant]) -> Vec<Duration> {
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

#[tokio::test(start_paused = true)]
async fn restarts_back_off_1_2_4_seconds_then_give_up_with_the_tail() {
    let h = start(Behaviour::FailToStart);
    let t0 = Instant::now();
    // Runs to completion on the paused clock: the give-up ends the task.
    h.task.await.unwrap();
    let starts = h.starts.lock().unwrap().clone();
    assert_eq!(starts.len(), 4, "the first start and three restarts");
    assert_eq!(gaps(&starts), [1, 2, 4].map(Duration::from_secs));
    assert_eq!(Instant::now() - t0, Duration::from_secs(7));
    let actions: Vec<String> = h
        .events
        .lock()
        .unwrap()
        .iter()
        .map(|e| e.1.clone())
        .collect();
    assert_eq!(
        actions,
        [
            "start", "death", "restart", "start", "death", "restart", "start", "death", "restart",
            "start", "death", "give_up"
        ]
    );
    let Status::GaveUp(msg) = h.shared.status() else {
        panic!("not given up: {:?}", h.shared.status())
    };
    assert!(
        msg.contains("exec failed") && msg.contains("stderr: start #4"),
        "{msg}"
    );
    assert_eq!(
        h.notices.lock().unwrap().as_slice(),
        [msg],
        "the model is told once"
    );
}

#[tokio::test(start_paused = true)]
async fn sixty_seconds_of_stable_running_resets_the_count() {
    // Each incarnation runs 61 s then dies: every restart is the first of a fresh count.
    let h = start(Behaviour::DieAfter(Duration::from_secs(61)));
    tokio::time::sleep(Duration::from_secs(61 * 6 + 10)).await;
    let starts = h.starts.lock().unwrap().clone();
    assert!(starts.len() >= 6, "{}", starts.len());
    assert!(
        gaps(&starts).iter().all(|g| *g == Duration::from_secs(62)),
        "{:?}",
        gaps(&starts)
    );
    assert!(!matches!(h.shared.status(), Status::GaveUp(_)));
    h.stop.send_replace(true);
    h.task.await.unwrap();
    assert_eq!(h.shared.status(), Status::Stopped);
}

#[tokio::test(start_paused = true)]
async fn short_lives_keep_counting_and_are_given_up() {
    // 59 s is not stable: the backoff grows 1, 2, 4 and then the server is given up.
    let h = start(Behaviour::DieAfter(Duration::from_secs(59)));
    h.task.await.unwrap();
    let starts = h.starts.lock().unwrap().clone();
    assert_eq!(gaps(&starts), [60, 61, 63].map(Duration::from_secs));
    assert!(matches!(h.shared.status(), Status::GaveUp(_)));
}

#[tokio::test(start_paused = true)]
async fn idle_servers_are_pinged_every_30_s_and_busy_ones_are_not() {
    let h = start(Behaviour::Live);
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(95)).await;
    let pings = h.pings.lock().unwrap().clone();
    assert_eq!(
        pings.iter().map(|p| *p - t0).collect::<Vec<_>>(),
        [30, 60, 90].map(Duration::from_secs)
    );

    // A call in progress for 100 s: no pings meanwhile.
    let busy = h.shared.busy();
    tokio::time::sleep(Duration::from_secs(100)).await;
    assert_eq!(h.pings.lock().unwrap().len(), 3, "pinged while busy");
    drop(busy);
    tokio::time::sleep(Duration::from_secs(31)).await;
    assert_eq!(
        h.pings.lock().unwrap().len(),
        4,
        "pinging resumes when idle"
    );
    assert_eq!(h.shared.status(), Status::Ready);
    h.stop.send_replace(true);
    h.task.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn two_missed_pings_mark_the_server_dead_and_it_is_restarted() {
    let h = start(Behaviour::Live);
    h.answer_pings.store(false, Ordering::SeqCst);
    let t0 = Instant::now();
    let mut status = h.shared.subscribe();
    status.wait_for(|s| *s == Status::Down).await.unwrap();
    // Ping at 30 s unanswered within 10 s, ping at 60 s unanswered by 70 s: dead at 70 s.
    assert_eq!(Instant::now() - t0, Duration::from_secs(70));
    let events = h.events.lock().unwrap().clone();
    let death = events.iter().find(|e| e.1 == "death").unwrap();
    assert!(death.2.as_deref().unwrap().contains("2 pings"), "{death:?}");
    assert!(h.shared.tools().is_empty(), "tools unregistered at death");
    h.answer_pings.store(true, Ordering::SeqCst);
    status.wait_for(|s| *s == Status::Ready).await.unwrap();
    assert_eq!(
        Instant::now() - t0,
        Duration::from_secs(71),
        "restarted after 1 s"
    );
    assert_eq!(h.shared.tools().len(), 1, "tools registered again");
    h.stop.send_replace(true);
    h.task.await.unwrap();
}
