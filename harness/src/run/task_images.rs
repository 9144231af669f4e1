//! Task images built while trials run. A first run of the suite needs several task images
//! (Go's, Rust's, Node's: minutes each), but most tasks run on the base image: those start
//! at once, and a trial of a task with its own `environment:` waits only for its own image.
//! Up to two images build at once, on the first engine (a build waits on the package mirror
//! as much as it computes, and shares the machine with running trials), in the order the
//! run's queue needs them; each is copied to the pool's other engines before its trials may
//! start.

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
    /// The tags in the order they are built.
    order: Vec<String>,
    builder: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl TaskImages {
    /// Every image the run needs is already there.
    pub fn present() -> Arc<TaskImages> {
        Arc::new(TaskImages {
            states: HashMap::new(),
            order: Vec::new(),
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
        let order = missing.iter().map(|i| i.recipe.tag()).collect();
        let builder = tokio::spawn(build_all(engines, missing, senders, progress));
        Arc::new(TaskImages {
            states,
            order,
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

    /// Where a trial of an image goes in the run's queue: after every trial that waits for
    /// nothing, in the order the images are built (so that the slots are not held by trials
    /// of an image that comes last while those of a built one wait behind them).
    pub fn queue_position(&self, tag: Option<&str>) -> usize {
        tag.filter(|t| self.is_building(t))
            .and_then(|t| self.order.iter().position(|o| o == t))
            .map_or(0, |i| i + 1)
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

/// Builds the images, [`at_once`] at a time in the run's order, each then copied to the
/// other engines, and says how each went.
async fn build_all(
    engines: Connected,
    missing: Vec<SuiteImage>,
    senders: Vec<watch::Sender<State>>,
    progress: Arc<dyn Reporter>,
) {
    use futures::StreamExt;
    let n = missing.len();
    let builds = missing.into_iter().zip(senders).enumerate();
    futures::stream::iter(builds)
        .for_each_concurrent(at_once(), |(i, (img, tx))| {
            let (engines, progress) = (&engines, progress.as_ref());
            async move {
                let state = build_one(engines, &img, (i + 1, n), progress).await;
                // No receiver left only when the run is over: nothing waits for it.
                let _ = tx.send(state);
            }
        })
        .await;
}

/// Image builds at once: two where there are two processors (a build waits on the package
/// mirror as much as it computes), else one.
fn at_once() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(2))
}

/// Builds `img` (number `i` of `n`) and copies it to the other engines.
async fn build_one(
    engines: &Connected,
    img: &SuiteImage,
    (i, n): (usize, usize),
    progress: &dyn Reporter,
) -> State {
    let tag = img.recipe.tag();
    let names = img.tasks.join(", ");
    progress.report(Progress::Note(&format!(
        "building task image {i}/{n} {tag} for {names} (its trials wait; the others run) ..."
    )));
    let hidden = indicatif::ProgressBar::hidden();
    let built = ensure_task_image(engines.first(), &img.recipe, &img.tasks, false, &hidden)
        .await
        .map_err(|e| e.to_string());
    let spread = match built {
        Ok(ensured) => engines
            .spread_images(std::slice::from_ref(&tag), progress)
            .await
            .map(|()| ensured)
            .map_err(|e| format!("{e:#}")),
        Err(e) => Err(e),
    };
    match spread {
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Images `tags` under way, in that build order, with their senders.
    fn building(tags: &[&str]) -> (TaskImages, Vec<watch::Sender<State>>) {
        let mut states = HashMap::new();
        let mut senders = Vec::new();
        for t in tags {
            let (tx, rx) = watch::channel(State::Building);
            states.insert((*t).to_owned(), rx);
            senders.push(tx);
        }
        let images = TaskImages {
            states,
            order: tags.iter().map(|t| (*t).to_owned()).collect(),
            builder: Mutex::new(None),
        };
        (images, senders)
    }

    #[test]
    fn trials_queue_after_the_ready_ones_in_build_order() {
        let (images, senders) = building(&["nab-task:b", "nab-task:a"]);
        assert_eq!(images.queue_position(None), 0, "the base image");
        assert_eq!(images.queue_position(Some("nab-task:present")), 0);
        assert_eq!(images.queue_position(Some("nab-task:b")), 1);
        assert_eq!(images.queue_position(Some("nab-task:a")), 2);
        senders[0].send(State::Ready).unwrap();
        assert_eq!(
            images.queue_position(Some("nab-task:b")),
            0,
            "built: waits for nothing"
        );
    }

    #[tokio::test]
    async fn a_trial_waits_for_its_image_and_learns_why_it_failed() {
        let (images, senders) = building(&["nab-task:a"]);
        let cancel = CancellationToken::new();
        assert_eq!(images.ready("nab-task:present", &cancel).await, Ok(()));
        let images = Arc::new(images);
        let waiting = {
            let (images, cancel) = (images.clone(), cancel.clone());
            tokio::spawn(async move { images.ready("nab-task:a", &cancel).await })
        };
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "it waits while the image builds");
        senders[0]
            .send(State::Failed("setup[1]: exit 3".into()))
            .unwrap();
        assert_eq!(
            waiting.await.unwrap(),
            Err(NotReady::Failed("setup[1]: exit 3".into()))
        );
        let (images, _senders) = building(&["nab-task:c"]);
        cancel.cancel();
        assert_eq!(
            images.ready("nab-task:c", &cancel).await,
            Err(NotReady::Cancelled)
        );
    }
}
