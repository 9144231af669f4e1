//! The shipped suite's shape, as tasks/README.md states it and issue 36 asks of it: the
//! category, language and difficulty counts the README gives are the task.yaml files' own;
//! no language has a single task or more than a third of the suite; and every long-context
//! task requires a compaction, says in its instruction that the requirement is nab-agent's
//! only, and hands the agent 100k+ tokens of material; and tests.lock pins every task's
//! current test set.

use crate::common::repo_tasks;
use nab_harness::task::{Category, Task, load_suite};
use std::collections::BTreeMap;
use std::path::Path;

/// The instruction's last paragraph on every long-context task (whitespace and quote
/// markers aside).
const SCORING_NOTE: &str = "For nab-agent it also requires that the agent's own context management summarize the conversation at least once (`requires_compaction: summarize` in the task); that requirement applies to nab-agent only and is reported apart from your answer. Any other agent is scored on its answers alone.";

/// The least material a long-context task gives the agent, in o200k tokens.
const MIN_LONG_CONTEXT_TOKENS: usize = 100_000;

fn suite() -> Vec<Task> {
    load_suite(&repo_tasks(), &[]).unwrap_or_else(|e| panic!("the shipped suite: {e}"))
}

fn readme() -> String {
    std::fs::read_to_string(repo_tasks().join("README.md")).unwrap()
}

fn counts<'a>(values: impl Iterator<Item = &'a str>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for v in values {
        *m.entry(v.to_lowercase()).or_insert(0) += 1;
    }
    m
}

/// `name 8, name 5, …` pairs after `prefix` in the README's paragraph that starts with it.
fn stated_counts(readme: &str, prefix: &str) -> BTreeMap<String, usize> {
    let para: String = readme
        .split("\n\n")
        .find(|p| p.starts_with(prefix))
        .unwrap_or_else(|| panic!("tasks/README.md has no paragraph starting {prefix:?}"))
        .replace('\n', " ");
    let re = regex::Regex::new(r"([A-Za-z]+) (\d+)").unwrap();
    re.captures_iter(&para)
        .map(|c| (c[1].to_lowercase(), c[2].parse().unwrap()))
        .collect()
}

#[test]
fn the_readme_counts_are_the_task_files_own_and_no_language_stands_alone() {
    let tasks = suite();
    let n = tasks.len();
    let readme = readme();

    let languages = counts(tasks.iter().map(|t| t.spec.language.as_str()));
    assert_eq!(stated_counts(&readme, "Languages:"), languages);
    for (lang, k) in &languages {
        assert!(*k > 1, "{lang} has a single task (issue 36: none at one)");
        assert!(3 * k <= n, "{lang} has {k} of {n} tasks, above a third");
    }

    let difficulty: Vec<String> = tasks
        .iter()
        .map(|t| format!("{:?}", t.spec.difficulty).to_lowercase())
        .collect();
    let stated = stated_counts(&readme, "Difficulty");
    let want = counts(difficulty.iter().map(String::as_str));
    for level in ["easy", "medium", "hard"] {
        assert_eq!(stated.get(level), want.get(level), "{level} in {stated:?}");
    }

    let re = regex::Regex::new(r"(?m)^\| `([a-z-]+)` \| (\d+) \|").unwrap();
    let stated: BTreeMap<String, usize> = re
        .captures_iter(&readme)
        .map(|c| (c[1].to_owned(), c[2].parse().unwrap()))
        .collect();
    let categories = counts(tasks.iter().map(|t| t.spec.category.as_str()));
    assert_eq!(stated, categories);
}

/// o200k tokens of the UTF-8 text files under `dir` (compressed and binary files aside).
fn text_tokens(dir: &Path) -> usize {
    walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| String::from_utf8(std::fs::read(e.path()).unwrap()).ok())
        .map(|text| nab_tokens::count(&text))
        .sum()
}

#[test]
fn long_context_tasks_require_a_compaction_say_whose_and_give_100k_tokens() {
    let long: Vec<Task> = suite()
        .into_iter()
        .filter(|t| t.spec.category == Category::LongContext)
        .collect();
    assert!(!long.is_empty());
    for t in &long {
        let id = &t.spec.id;
        assert!(
            t.spec
                .agent
                .as_ref()
                .is_some_and(|a| a.requires_compaction.is_some()),
            "{id}: no requires_compaction"
        );
        let instruction = std::fs::read_to_string(t.dir.join("instruction.md")).unwrap();
        let flat = instruction
            .split_whitespace()
            .filter(|w| *w != ">")
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            flat.contains(SCORING_NOTE),
            "{id}: the instruction does not end with the scoring note"
        );
        let tokens = text_tokens(&t.dir.join("workspace"));
        assert!(
            tokens >= MIN_LONG_CONTEXT_TOKENS,
            "{id}: {tokens} tokens of material, fewer than {MIN_LONG_CONTEXT_TOKENS}"
        );
    }
}

#[test]
fn every_task_pins_its_current_test_set_in_tests_lock() {
    // A stale entry leaves the task's test set unpinned (a verdict could then rest on fewer
    // tests than the oracle ran); `nab validate` re-pins it.
    let lock = nab_harness::task::pinned::TestLock::read(&repo_tasks()).unwrap();
    let stale: Vec<String> = suite()
        .iter()
        .filter(|t| {
            let now = nab_harness::task::pinned::tests_hash(&t.dir).unwrap();
            lock.tasks.get(&t.spec.id).map(|e| &e.tests_hash) != Some(&now)
        })
        .map(|t| t.spec.id.clone())
        .collect();
    assert!(
        stale.is_empty(),
        "tests.lock has no current entry for {stale:?}: run `nab validate --tasks tasks <id>`"
    );
}
