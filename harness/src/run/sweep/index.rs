//! Starting and resuming a sweep folder's `sweep.json`. The file's type, name and reader are
//! nab-protocol's [`SweepIndex`] (the leaderboard reads the same type); here is what
//! `nab sweep` adds: `--resume` reads the hash and refuses a sweep file that changed, or a
//! shard resumed as another.

use nab_protocol::{IndexRun, SWEEP_INDEX_FILE, SWEEP_INDEX_VERSION, ShardMeta, SweepIndex};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    #[error(transparent)]
    Index(#[from] nab_protocol::SweepIndexError),
    #[error(
        "{} changed since the sweep in {} started ({then} then, {now} now); resume with the file it started with, or start a new sweep with another --out",
        .file.display(), .out.display()
    )]
    Changed {
        file: PathBuf,
        out: PathBuf,
        then: String,
        now: String,
    },
    #[error(
        "{} already holds a sweep ({SWEEP_INDEX_FILE}); continue it with --resume, or choose another --out",
        .0.display()
    )]
    Exists(PathBuf),
    #[error("{} holds no {SWEEP_INDEX_FILE}: nothing to resume; run without --resume", .0.display())]
    Missing(PathBuf),
    #[error(
        "{} is {then}; resume it with the same --shard, --group and --balance-from it started with (now: {now})",
        .out.display()
    )]
    OtherShard {
        out: PathBuf,
        then: String,
        now: String,
    },
}

/// How a sweep folder's sharding reads in messages.
fn sharding_text(shard: Option<&ShardMeta>, group: Option<&str>) -> String {
    match (shard, group) {
        (Some(s), g) => format!(
            "shard {}/{} of group {} (plan {})",
            s.index,
            s.count,
            g.unwrap_or("none"),
            s.plan
        ),
        (None, _) => "not a shard".into(),
    }
}

/// What `nab sweep` does with its sweep folder's index beyond reading and writing it (the
/// type, its file name and its reader live in nab-protocol).
pub trait SweepResume: Sized {
    /// The index a sweep starts from: a new one (refused when `out` already holds a sweep),
    /// or on `--resume` the one in `out`, whose hash must be `hash` (the file is unchanged).
    fn begin(
        out: &Path,
        file: &Path,
        hash: &str,
        runs: Vec<IndexRun>,
        resume: bool,
    ) -> Result<Self, IndexError>;

    /// Records `--shard`/`--group` in a new index; a resumed one must have started with
    /// the same (a shard resumed as another would mix two plans in one folder).
    fn check_sharding(
        &mut self,
        out: &Path,
        resume: bool,
        shard: Option<&ShardMeta>,
        group: Option<&str>,
    ) -> Result<(), IndexError>;
}

impl SweepResume for SweepIndex {
    fn begin(
        out: &Path,
        file: &Path,
        hash: &str,
        runs: Vec<IndexRun>,
        resume: bool,
    ) -> Result<Self, IndexError> {
        let before = SweepIndex::read(out)?;
        match (before, resume) {
            (Some(_), false) => Err(IndexError::Exists(out.to_owned())),
            (None, true) => Err(IndexError::Missing(out.to_owned())),
            (Some(b), true) if b.sweep_hash != hash => Err(IndexError::Changed {
                file: file.to_owned(),
                out: out.to_owned(),
                then: b.sweep_hash,
                now: hash.to_owned(),
            }),
            (Some(b), true) => Ok(SweepIndex {
                finished_at: None,
                runs,
                ..b
            }),
            (None, false) => Ok(SweepIndex {
                v: SWEEP_INDEX_VERSION,
                sweep_file: file.to_owned(),
                sweep_hash: hash.to_owned(),
                started_at: nab_protocol::now_rfc3339(),
                finished_at: None,
                runs,
                providers: Vec::new(),
                shard: None,
                group: None,
                merged_from: Vec::new(),
            }),
        }
    }

    fn check_sharding(
        &mut self,
        out: &Path,
        resume: bool,
        shard: Option<&ShardMeta>,
        group: Option<&str>,
    ) -> Result<(), IndexError> {
        if resume && (self.shard.as_ref() != shard || self.group.as_deref() != group) {
            return Err(IndexError::OtherShard {
                out: out.to_owned(),
                then: sharding_text(self.shard.as_ref(), self.group.as_deref()),
                now: sharding_text(shard, group),
            });
        }
        self.shard = shard.cloned();
        self.group = group.map(str::to_owned);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs() -> Vec<IndexRun> {
        vec![IndexRun {
            dir: "01-nab-agent--scripted-task".into(),
            agent: "nab-agent".into(),
            model: Some("scripted:task".into()),
            provider: Some("scripted:task".into()),
        }]
    }

    #[test]
    fn begin_refuses_a_second_start_a_missing_resume_and_a_changed_file() {
        let d = tempfile::tempdir().unwrap();
        let f = Path::new("s.yaml");
        let err = SweepIndex::begin(d.path(), f, "sha256:a", runs(), true).unwrap_err();
        assert!(matches!(err, IndexError::Missing(_)), "{err}");
        let i = SweepIndex::begin(d.path(), f, "sha256:a", runs(), false).unwrap();
        i.write(d.path()).unwrap();
        let err = SweepIndex::begin(d.path(), f, "sha256:a", runs(), false).unwrap_err();
        assert!(err.to_string().contains("--resume"), "{err}");
        let err = SweepIndex::begin(d.path(), f, "sha256:b", runs(), true).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("s.yaml changed") && msg.contains("sha256:a then, sha256:b now"),
            "{msg}"
        );
        let again = SweepIndex::begin(d.path(), f, "sha256:a", runs(), true).unwrap();
        assert_eq!(again.started_at, i.started_at);
        // The leaderboard reads the same type back and finds the runs by their `dir`.
        let back = SweepIndex::read(d.path()).unwrap().unwrap();
        assert_eq!(back.runs[0].dir, "01-nab-agent--scripted-task");
    }
}
