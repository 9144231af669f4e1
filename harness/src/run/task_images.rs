//! Task images built while trials run. A first run of the suite needs several task images
//! (Go's, Rust's, Node's: minutes each), but most tasks run on the base image: those start
//! at once, and a trial of a task with its own `environment:` waits only for its own image.
//! One image builds at a time, on the first engine (builds are CPU-heavy and share the
//! machine with running trials), in the order the run needs them; each is copied to the
//! pool's other engines before its trials may start.

use super::engines::Connected;
use super::progress::{Progress, Reporter};
use crate::env::image::{SuiteImage, ensure_task_image};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// Where one image stands.
#[derive(Debug, Clone, PartialEq)]
enum State {
    Building,
    Ready,
    /// The build's error, which names the task(s) and the failing command.
    Failed(Arc<str>),
}

/// Why a trial cannot have its image.
#[derive(Debug, PartialEq)]
pub enum NotReady {
    /// The run was interrupted while the trial waited.
    Cancelled,
    /// The image could not be built: the message says which command failed.
    Failed(String),
}

/// The task images a run builds in the background, by tag. An image not listed here was
/// present before the run started.
pub struct TaskImages {
    states: HashMap<String, watch::Receiver<State>>,
    builder: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl TaskImages {
    /// Every image the run needs is already there.
    pub fn present() -> Arc<TaskImages> {
        Arc::new(TaskImages {
            states: HashMap::new(),
            builder: Mutex::new(None),
        })
    }

    /// Starts building `missing` (in that order) on `engines`' first engine, telling
    /// `progress` as each starts and ends.
    pub fn start(
        engines: Connected,
        missing: Vec<SuiteImage>,
        progress: Arc<dyn Reporter>,
    ) -> Arc<TaskImages> {
        let mut states = HashMap::new();
        let mut senders = Vec::new();
        for img in &missing {
            let (tx, rx) = watch::channel(State::Building);
            states.insert(img.recipe.tag(), rx);
            senders.push(tx);
        }
        let builder = tokio::spawn(build_all(engines, missing, senders, progress));
        Arc::new(TaskImages {
            states,
            builder: Mutex::new(Some(builder)),
        })
    }

    /// Whether `tag` is still being built (false for an image that was present, is
    /// ready, or failed).
    pub fn is_building(&self, tag: &str) -> bool {
        self.states
            .get(tag)
            .is_some_and(|rx| *rx.borrow() == State::Building)
    }

    /// Waits until `tag` is ready (at once for an image that was present).
    pub async fn ready(&self, tag: &str, cancel: &CancellationToken) -> Result<(), NotReady> {
        let Some(rx) = self.states.get(tag) else {
            return Ok(());
        };
        let mut rx = rx.clone();
        let state = tokio::select! {
            s = rx.wait_for(|s| *s != State::Building) => s.map(|s| s.clone()),
            _ = cancel.cancelled() => return Err(NotReady::Cancelled),
        };
        match state {
            Ok(State::Failed(why)) => Err(NotReady::Failed(why.to_string())),
            Ok(_) => Ok(()),
            // The builder is gone without a word: only an abort (the run is ending) does that.
            Err(_) => Err(NotReady::Cancelled),
        }
    }

    /// Waits for every image, for a command that builds them all before its first trial.
    /// The first failure is the error.
    pub async fn all_ready(&self) -> Result<(), String> {
        let never = CancellationToken::new();
        for tag in self.states.keys() {
            match self.ready(tag, &never).await {
                Ok(()) => {}
                Err(NotReady::Failed(why)) => return Err(why),
                Err(NotReady::Cancelled) => return Err(format!("the build of {tag} stopped")),
            }
        }
        Ok(())
    }

    /// Stops a build still under way (an interrupted run); the engine drops the build when
    /// its client goes.
    pub fn stop(&self) {
        if let Some(b) = self.builder.lock().ok().and_then(|mut b| b.take()) {
            b.abort();
        }
    }
}

impl Drop for TaskImages {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Builds each image in turn, then copies it to the other engines, and says how it went.
async fn build_all(
    engines: Connected,
    missing: Vec<SuiteImage>,
    senders: Vec<watch::Sender<State>>,
    progress: Arc<dyn Reporter>,
) {
    let n = missing.len();
    let hidden = indicatif::ProgressBar::hidden();
    for (i, (img, tx)) in missing.into_iter().zip(senders).enumerate() {
        let tag = img.recipe.tag();
        let names = img.tasks.join(", ");
        progress.report(Progress::Note(&format!(
            "building task image {}/{n} {tag} for {names} (its trials wait; the others run) ...",
            i + 1
        )));
        let built = ensure_task_image(engines.first(), &img.recipe, &img.tasks, false, &hidden)
            .await
            .map_err(|e| e.to_string());
        let spread = match built {
            Ok(ensured) => engines
                .spread_images(std::slice::from_ref(&tag), progress.as_ref())
                .await
                .map(|()| ensured)
                .map_err(|e| format!("{e:#}")),
            Err(e) => Err(e),
        };
        let state = match spread {
            Ok(ensured) => {
                let took = ensured.built_in.map_or(0.0, |t| t.as_secs_f64());
                progress.report(Progress::Note(&format!(
                    "built task image {tag} ({names}) in {took:.1} s"
                )));
                State::Ready
            }
            Err(why) => {
                progress.report(Progress::Note(&format!("error: {why}")));
                State::Failed(why.into())
            }
        };
        // No receiver left only when the run is over: nothing waits for the rest.
        if tx.send(state).is_err() {
            return;
        }
    }
}
