//! What the runner tells the person watching: it sends [`Progress`] events to a
//! [`Reporter`] and never draws anything itself. On a terminal the reporter is an indicatif
//! bar; otherwise (CI logs, pipes) plain lines, one per finished trial.

use nab_protocol::TrialRecord;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One thing that happened in a run.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// The run starts with this many trials to do (those a resume kept are not counted).
    Started { pending: usize },
    /// A trial ended with this record.
    Trial(&'a TrialRecord),
    /// A trial ended without a record (interrupted before it began).
    Dropped,
    /// A trial was not started because `--max-cost-usd` was reached (not recorded).
    Skipped,
    /// Ctrl-C: the running trials are being stopped and cleaned up.
    Interrupting,
    /// Every trial has ended.
    Finished,
    /// Something the run does beside its trials (a task image built meanwhile): one line,
    /// shown above the bar.
    Note(&'a str),
}

/// Receives the runner's progress events.
pub trait Reporter: Send + Sync {
    fn report(&self, event: Progress<'_>);
}

/// Shows nothing (tests, library callers).
pub struct Silent;

impl Reporter for Silent {
    fn report(&self, _: Progress<'_>) {}
}

/// An indicatif bar on stderr.
pub struct Bar(indicatif::ProgressBar);

impl Bar {
    pub fn new(target: indicatif::ProgressDrawTarget) -> Bar {
        let bar = indicatif::ProgressBar::with_draw_target(None, target);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} [{elapsed}, ~{eta} left] {msg}",
        ) {
            bar.set_style(style);
        }
        Bar(bar)
    }
}

impl Reporter for Bar {
    fn report(&self, event: Progress<'_>) {
        match event {
            Progress::Started { pending } => self.0.set_length(pending as u64),
            Progress::Trial(rec) => {
                self.0.inc(1);
                self.0.set_message(trial_words(rec));
            }
            Progress::Dropped => self.0.inc(1),
            Progress::Skipped => {
                self.0.inc(1);
                self.0
                    .set_message("--max-cost-usd reached: no new trial starts");
            }
            Progress::Interrupting => self
                .0
                .set_message("interrupted: stopping trials and removing their containers"),
            Progress::Finished => self.0.finish_and_clear(),
            Progress::Note(line) => self.0.println(line),
        }
    }
}

/// `task agent [model] Status [on <engine>]`: the model when the trial had one, the engine
/// for a trial of a pool of engines.
fn trial_words(rec: &TrialRecord) -> String {
    let model = rec
        .model
        .as_deref()
        .map(|m| format!(" {m}"))
        .unwrap_or_default();
    let engine = rec
        .outcome
        .engine
        .as_deref()
        .map(|e| format!(" on {e}"))
        .unwrap_or_default();
    format!(
        "{} {}{model} {:?}{engine}",
        rec.task_id, rec.agent, rec.outcome.status
    )
}

/// One plain line on stderr per finished trial: `[3/28] task agent Passed`, and how long
/// the rest should take once that is worth saying (`[12/28, ~3 min left] ...`).
#[derive(Default)]
pub struct Lines {
    total: AtomicUsize,
    done: AtomicUsize,
    skipped: AtomicUsize,
    started: std::sync::OnceLock<std::time::Instant>,
}

/// `~N s left` or `~N min left` for `done` of `total` trials ended after `elapsed`, at the
/// pace so far; `None` until a trial has ended, at the end, and under 10 s (noise).
fn time_left(elapsed: std::time::Duration, done: usize, total: usize) -> Option<String> {
    if done == 0 || done >= total {
        return None;
    }
    let left = elapsed.as_secs_f64() / done as f64 * (total - done) as f64;
    match left {
        l if l < 10.0 => None,
        l if l < 90.0 => Some(format!("~{:.0} s left", l)),
        l => Some(format!("~{:.0} min left", (l / 60.0).ceil())),
    }
}

impl Lines {
    fn line(&self, event: Progress<'_>) -> Option<String> {
        match event {
            Progress::Started { pending } => {
                self.total.store(pending, Ordering::Relaxed);
                let _ = self.started.set(std::time::Instant::now());
                None
            }
            Progress::Trial(rec) => {
                let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                let total = self.total.load(Ordering::Relaxed);
                let elapsed = self.started.get().map(|s| s.elapsed()).unwrap_or_default();
                let left = time_left(elapsed, n, total)
                    .map(|l| format!(", {l}"))
                    .unwrap_or_default();
                // The model is named: a sweep's lines mix the runs of several; so is
                // the engine, when a pool has more than one.
                Some(format!("[{n}/{total}{left}] {}", trial_words(rec)))
            }
            Progress::Dropped => {
                self.done.fetch_add(1, Ordering::Relaxed);
                None
            }
            // Said once: the skips come all at once, and the end of the run counts them.
            Progress::Skipped => {
                let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                (self.skipped.fetch_add(1, Ordering::Relaxed) == 0).then(|| {
                    format!(
                        "[{n}/{}] --max-cost-usd reached: the trials not yet started are skipped (not recorded)",
                        self.total.load(Ordering::Relaxed)
                    )
                })
            }
            Progress::Note(line) => Some(line.to_owned()),
            // The runner says so on stderr itself.
            Progress::Interrupting | Progress::Finished => None,
        }
    }
}

impl Reporter for Lines {
    fn report(&self, event: Progress<'_>) {
        if let Some(line) = self.line(event) {
            eprintln!("{line}");
        }
    }
}

/// The reporter for a command run by a person or by CI: a bar on a terminal, else lines.
pub fn for_stderr() -> Arc<dyn Reporter> {
    if std::io::stderr().is_terminal() {
        Arc::new(Bar::new(indicatif::ProgressDrawTarget::stderr()))
    } else {
        Arc::new(Lines::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::TrialStatus;

    #[test]
    fn lines_count_every_ended_trial_against_the_total() {
        let l = Lines::default();
        assert_eq!(l.line(Progress::Started { pending: 3 }), None);
        let mut rec = TrialRecord::new("run", "t1", "cat", 0, "oracle");
        rec.outcome.status = TrialStatus::Passed;
        assert_eq!(
            l.line(Progress::Trial(&rec)).as_deref(),
            Some("[1/3] t1 oracle Passed")
        );
        assert_eq!(l.line(Progress::Dropped), None);
        rec.task_id = "t2".into();
        rec.outcome.status = TrialStatus::Failed;
        assert_eq!(
            l.line(Progress::Trial(&rec)).as_deref(),
            Some("[3/3] t2 oracle Failed")
        );
        assert_eq!(l.line(Progress::Finished), None);
    }

    /// The first trial line of a run of `pending` trials, for a record of `agent` with
    /// `status` that `edit` changes further.
    fn first_line(
        pending: usize,
        agent: &str,
        status: TrialStatus,
        edit: impl FnOnce(&mut TrialRecord),
    ) -> Option<String> {
        let l = Lines::default();
        l.line(Progress::Started { pending });
        let mut rec = TrialRecord::new("run", "t1", "cat", 0, agent);
        rec.outcome.status = status;
        edit(&mut rec);
        l.line(Progress::Trial(&rec))
    }

    /// A sweep's lines mix several models: each names its own. A pool's lines say which
    /// engine ran the trial.
    #[test]
    fn a_line_names_the_trials_model_and_engine() {
        let model: fn(&mut TrialRecord) = |rec| {
            rec.model = Some("openai:m@http://127.0.0.1:9/v1".into());
        };
        let engine: fn(&mut TrialRecord) = |rec| {
            rec.outcome.engine = Some("unix:///tmp/d2/docker.sock".into());
        };
        for (pending, agent, status, edit, want) in [
            (
                2,
                "nab-agent",
                TrialStatus::Failed,
                model,
                "[1/2] t1 nab-agent openai:m@http://127.0.0.1:9/v1 Failed",
            ),
            (
                1,
                "oracle",
                TrialStatus::Passed,
                engine,
                "[1/1] t1 oracle Passed on unix:///tmp/d2/docker.sock",
            ),
        ] {
            assert_eq!(
                first_line(pending, agent, status, edit).as_deref(),
                Some(want)
            );
        }
    }

    #[test]
    fn time_left_is_said_at_the_pace_so_far_once_it_is_worth_saying() {
        let s = std::time::Duration::from_secs;
        assert_eq!(time_left(s(60), 1, 28).as_deref(), Some("~27 min left"));
        assert_eq!(time_left(s(20), 2, 5).as_deref(), Some("~30 s left"));
        assert_eq!(time_left(s(2), 1, 3), None, "under 10 s is noise");
        assert_eq!(time_left(s(600), 28, 28), None, "nothing is left");
        assert_eq!(time_left(s(0), 0, 28), None, "no pace yet");
    }

    #[test]
    fn a_note_is_a_line_of_its_own() {
        let l = Lines::default();
        let note = "built task image nab-task:1 (t1) in 3.0 s";
        assert_eq!(l.line(Progress::Note(note)).as_deref(), Some(note));
    }

    #[test]
    fn the_first_skip_is_said_once_and_every_skip_counts() {
        let l = Lines::default();
        l.line(Progress::Started { pending: 4 });
        let first = l.line(Progress::Skipped).unwrap();
        assert!(first.starts_with("[1/4] --max-cost-usd reached"), "{first}");
        assert_eq!(l.line(Progress::Skipped), None);
        let mut rec = TrialRecord::new("run", "t1", "cat", 0, "oracle");
        rec.outcome.status = TrialStatus::Passed;
        assert_eq!(
            l.line(Progress::Trial(&rec)).as_deref(),
            Some("[3/4] t1 oracle Passed")
        );
    }
}
