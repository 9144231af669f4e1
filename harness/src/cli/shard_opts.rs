//! `--shard K/N`, `--group ID` and `--balance-from DIR`, shared by `nab run` and
//! `nab sweep`: both cut their (task, trial) pairs with `nab_harness::run::shard::Share::cut`.

use nab_harness::run::shard::{ShardSpec, Share};
use nab_harness::task::Task;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone, clap::Args)]
pub struct ShardOpts {
    /// Run only shard K of N (1-based): a deterministic share of the (task, trial) pairs
    /// (of every run, in a sweep), balanced by cost, so that N machines given 1/N .. N/N
    /// run every pair exactly once. Join the shards' folders with `nab merge`. Needs --group.
    #[arg(long, value_name = "K/N", requires = "group")]
    pub shard: Option<ShardSpec>,
    /// The id every shard of one sharded run shares (e.g. the CI run or Slurm job id);
    /// recorded in run.json and checked by `nab merge`.
    #[arg(long, value_name = "ID")]
    pub group: Option<String>,
    /// Balance the shards by the task durations of an earlier run folder instead of the
    /// tasks' timeouts. Every shard must be given the same folder.
    #[arg(long, value_name = "DIR", requires = "shard")]
    pub balance_from: Option<PathBuf>,
}

impl ShardOpts {
    /// This shard's share of `tasks` × `trials`, said on stderr; `None` without `--shard`.
    pub fn cut(&self, tasks: &[Arc<Task>], trials: u32) -> anyhow::Result<Option<Share>> {
        let Some(spec) = self.shard else {
            return Ok(None);
        };
        let timeouts: Vec<(String, f64)> = tasks
            .iter()
            .map(|t| {
                let to = &t.spec.timeouts;
                (t.id().to_owned(), to.agent_s + to.verify_s)
            })
            .collect();
        let share = Share::cut(&timeouts, trials, spec, self.balance_from.as_deref())?;
        eprintln!(
            "shard {spec}: {} of {} trial(s) per run, balanced by {}",
            share.pairs.len(),
            share.total,
            share.balance
        );
        Ok(Some(share))
    }

    /// What each run folder's run.json records of `share` and `--group`.
    pub fn recorded(&self, share: Option<&Share>) -> nab_harness::run::meta::Sharding {
        nab_harness::run::meta::Sharding {
            shard: share.map(|s| s.meta.clone()),
            group: self.group.clone(),
        }
    }
}
