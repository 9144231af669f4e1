//! Each task's files as they were when the suite was loaded. A trial reads its task's files
//! when it starts, so an edit made while `nab run` or `nab validate` goes on would judge the
//! later trials on other files than the earlier ones: both commands compare at the end and
//! name the tasks that changed.

use crate::task::Task;
use std::sync::Arc;

/// Each task's files, hashed (`nab_protocol::suite_hash` of the task alone) when the suite
/// is loaded, so that a task edited while its trials ran is called out instead of judged on
/// a mix of its old and new files.
pub struct TaskFiles(std::collections::BTreeMap<String, String>);

impl TaskFiles {
    pub fn hash(tasks: &[Arc<Task>]) -> anyhow::Result<TaskFiles> {
        let mut by_id = std::collections::BTreeMap::new();
        for t in tasks {
            by_id.insert(t.id().to_owned(), Self::of(t)?);
        }
        Ok(TaskFiles(by_id))
    }

    /// The ids of the tasks whose files are no longer the ones hashed (or can no longer be
    /// read), in order.
    pub fn changed(&self, tasks: &[Arc<Task>]) -> Vec<String> {
        tasks
            .iter()
            .filter(|t| self.0.get(t.id()) != Self::of(t).ok().as_ref())
            .map(|t| t.id().to_owned())
            .collect()
    }

    fn of(t: &Task) -> anyhow::Result<String> {
        let (Some(parent), Some(name)) = (t.dir.parent(), t.dir.file_name()) else {
            anyhow::bail!(
                "{}: not a task folder inside a tasks folder",
                t.dir.display()
            );
        };
        Ok(nab_protocol::suite_hash(
            parent,
            &[name.to_string_lossy().into_owned()],
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_edited_while_its_checks_run_is_named_and_an_untouched_one_is_not() {
        let suite = tempfile::tempdir().unwrap();
        let shipped = Arc::new(
            crate::task::load_task(
                &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../tasks/py-pagination-offbyone"),
            )
            .unwrap(),
        );
        let copied = std::process::Command::new("cp")
            .arg("-R")
            .arg(&shipped.dir)
            .arg(suite.path())
            .status()
            .unwrap();
        assert!(copied.success());
        let dir = suite.path().join(shipped.id());
        let t = Arc::new(crate::task::load_task(&dir).unwrap());
        let tasks = vec![t.clone()];
        let before = TaskFiles::hash(&tasks).unwrap();
        assert!(before.changed(&tasks).is_empty());
        // Not only tests/: a wrong solution's script decides that check's verdict too.
        let wrong = t.wrong_dir(&t.wrong[0]);
        let script = wrong.join("solve.sh");
        let mut bytes = std::fs::read(&script).unwrap();
        bytes.extend_from_slice(b"\n# edited mid-run\n");
        std::fs::write(&script, bytes).unwrap();
        assert_eq!(before.changed(&tasks), vec![t.id().to_owned()]);
        // A task folder gone is changed too, not an error that loses the verdicts.
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(before.changed(&tasks), vec![t.id().to_owned()]);
    }
}
