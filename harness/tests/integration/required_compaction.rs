//! `agent.requires_compaction`, end to end against real Docker: nab-agent played by a
//! scripted model whose history outgrows a small window compacts (a summary the gateway
//! answered) and passes; the same trajectory under a window it never fills passes the
//! tests but fails `missing_compaction`. A command agent that writes a `summarize`
//! compaction event without asking the gateway for a summary fails the same way, and the
//! same agent passes when it does ask.

use crate::common;

use common::{unique, write, write_exec};
use nab_protocol::{CompactionCheck, FailureReason, TrialRecord, TrialStatus};
use nab_protocol::{CompactionTier, Event, EventKind};
use std::path::Path;
use std::process::{Command, Output};

/// Twelve short notes, each read in a step whose text carries what the earlier ones said
/// (some 500 tokens): the text outlives the tool results the agent clears, so a
/// 12,000-token window passes its summary threshold (6,000) after about eight steps, with
/// each step small enough to stay whole after the cut; a 100,000-token window never does.
const NOTES: usize = 12;

/// Hex words (few characters per token, so the text weighs what its size says).
fn hex_words(seed: u64, n: usize) -> String {
    let mut x = (seed + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            format!("{x:016x}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn note(i: usize) -> String {
    (0..10)
        .map(|l| {
            format!(
                "note {i} line {l:02}: {}\n",
                hex_words((i * 100 + l) as u64, 4)
            )
        })
        .collect()
}

fn task_yaml(id: &str, agent: &str) -> String {
    common::task_yaml(
        id,
        "long-context",
        r#"["python3", "-m", "nabverify", "cat", "/workspace/done.txt"]"#,
        &format!("agent: {agent}\n"),
    )
}

const SUMMARY: &str = "## 1. Current goal and success criteria\nRead the notes, then write done.txt.\n\
## 2. User requirements and confirmed decisions\nNone beyond the instruction.\n\
## 3. Work done and evidence\nRead the earlier notes; nothing in them matters.\n\
## 4. Open problems and next steps\nRead the remaining notes and write done.txt.\n";

/// nab-agent's task: read every note, then write done.txt.
fn agent_task(root: &Path, id: &str, window: u64) {
    let dir = root.join(id);
    write(
        &dir.join("task.yaml"),
        &task_yaml(
            id,
            &format!("{{context_window: {window}, requires_compaction: summarize}}"),
        ),
    );
    write(
        &dir.join("instruction.md"),
        "Read every file in notes/, then write done.txt.\n",
    );
    for i in 0..NOTES {
        write(&dir.join(format!("workspace/notes/n{i}.txt")), &note(i));
    }
    write(&dir.join("tests/README"), "the check is in task.yaml\n");
    write(&dir.join("solution/solve.sh"), "echo ok > done.txt\n");
    let mut t = String::from("turns:\n");
    for i in 0..NOTES {
        let recap = hex_words(1000 + i as u64, 64);
        t.push_str(&format!(
            "  - content: \"Reading note {i}; what the earlier ones said: {recap}\"\n    tool_calls:\n      - name: read_file\n        arguments: {{path: notes/n{i}.txt}}\n"
        ));
    }
    t.push_str("  - content: \"Done reading.\"\n    tool_calls:\n      - name: write_file\n        arguments: {path: done.txt, content: \"ok\\n\"}\n");
    t.push_str("  - content: \"All notes read; done.txt written.\"\nsummaries:\n");
    for _ in 0..6 {
        t.push_str(&format!(
            "  - {}\n",
            serde_json::to_string(SUMMARY).unwrap()
        ));
    }
    write(&dir.join("trajectory.yaml"), &t);
}

/// A command agent: one model call (a summary request when the instruction says so), then
/// events claiming a `summarize` compaction (none when it says "claim nothing"), and
/// done.txt.
const CLAIMER: &str = concat!(
    "#!/usr/bin/env python3\n",
    crate::gateway_post_py!(),
    r#"import sys
instruction = sys.stdin.read()
system = "You are a coding agent."
if "ask for a summary" in instruction:
    system = "[nab-agent: summary request] You compress the history."
resp = post(json.dumps({"model": "m", "messages": [
    {"role": "system", "content": system}, {"role": "user", "content": "history"}]}).encode())
ts = "2026-01-01T00:00:00.000Z"
events = [
    {"v": 1, "ts": ts, "kind": "compaction", "step": 2, "tier": "summarize", "tokens_before": 9000,
     "tokens_after": 2000, "messages_before": 30, "messages_after": 5, "succeeded": True},
    {"v": 1, "ts": ts, "kind": "finish", "exit_reason": "final_answer", "steps": 2},
]
if "claim nothing" in instruction:
    events = events[1:]
with open("/nab/out/events.jsonl", "w") as f:
    f.write("".join(json.dumps(e) + "\n" for e in events))
with open("/workspace/done.txt", "w") as f:
    f.write(resp.decode("latin-1")[-200:] + "\n")
"#
);

fn claimer_task(root: &Path, id: &str, instruction: &str) {
    let dir = root.join(id);
    write(
        &dir.join("task.yaml"),
        &task_yaml(
            id,
            "{context_window: 16000, requires_compaction: summarize}",
        ),
    );
    write(&dir.join("instruction.md"), instruction);
    write(&dir.join("workspace/README"), "nothing here\n");
    write(&dir.join("tests/README"), "the check is in task.yaml\n");
    write(&dir.join("solution/solve.sh"), "echo ok > done.txt\n");
    let summary = serde_json::to_string(SUMMARY).unwrap();
    write(
        &dir.join("trajectory.yaml"),
        &format!("turns:\n  - content: \"hello\"\nsummaries:\n  - {summary}\n"),
    );
}

/// `nab run` of every task in `suite` with `agent` and the scripted model.
fn nab_run(run_id: &str, out: &Path, suite: &Path, agent: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nab"))
        .args([
            "run",
            "--run-id",
            run_id,
            "--attempts",
            "1",
            "-j",
            "2",
            "--model",
            "scripted:task",
            "--agent",
            agent,
            "--out",
        ])
        .arg(out)
        .arg("--tasks")
        .arg(suite)
        .output()
        .unwrap()
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn record<'a>(recs: &'a [TrialRecord], task: &str) -> &'a TrialRecord {
    recs.iter()
        .find(|r| r.task_id == task)
        .unwrap_or_else(|| panic!("no record of {task}: {recs:?}"))
}

fn summarize_events(out: &Path, task: &str) -> usize {
    nab_protocol::read_jsonl::<Event>(&out.join("trials").join(task).join("0/events.jsonl"))
        .unwrap()
        .records
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Compaction {
                    tier: CompactionTier::Summarize,
                    succeeded: true,
                    ..
                }
            )
        })
        .count()
}

fn assert_missing_compaction(r: &TrialRecord) {
    assert_eq!(r.outcome.status, TrialStatus::Failed, "{r:?}");
    assert_eq!(
        r.outcome.failure_reason,
        Some(FailureReason::MissingCompaction),
        "{r:?}"
    );
    assert!(
        r.behaviour
            .violations
            .iter()
            .any(|v| v.contains("requires a `summarize` compaction")),
        "{:?}",
        r.behaviour.violations
    );
    // The tests themselves passed: the compaction alone failed it, and the record says so
    // apart from the answers.
    assert_eq!(r.outcome.tests_passed, r.outcome.tests_total, "{r:?}");
    assert_eq!(r.outcome.verifier_passed, Some(true), "{r:?}");
    assert_eq!(r.outcome.compaction, Some(CompactionCheck::Missed), "{r:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_required_compaction_passes_when_the_gateway_saw_it_and_fails_when_it_did_not() {
    common::base_image().await;
    common::ensure_nab_agent();
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        root.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();

    // nab-agent: the same trajectory under a small and a large window.
    let suite = root.path().join("agent-suite");
    agent_task(&suite, "lc-compacts", 12_000);
    agent_task(&suite, "lc-never-compacts", 100_000);
    let run_id = unique("compaction");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("agent-out");
    let o = nab_run(&run_id, &out, &suite, "nab-agent");
    let recs = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records;
    assert_eq!(recs.len(), 2, "{}", show(&o));
    let small = record(&recs, "lc-compacts");
    assert_eq!(
        small.outcome.status,
        TrialStatus::Passed,
        "{small:?}\n{}",
        show(&o)
    );
    assert!(
        small.behaviour.violations.is_empty(),
        "{:?}",
        small.behaviour.violations
    );
    assert_eq!(
        small.outcome.compaction,
        Some(CompactionCheck::Met),
        "{small:?}"
    );
    assert_eq!(small.outcome.verifier_passed, Some(true), "{small:?}");
    assert!(summarize_events(&out, "lc-compacts") >= 1);
    let large = record(&recs, "lc-never-compacts");
    assert_missing_compaction(large);
    assert_eq!(summarize_events(&out, "lc-never-compacts"), 0);
    assert_eq!(
        large.behaviour.agent_exit_reason.as_deref(),
        Some("final_answer")
    );

    // A command agent claiming a summary: counted only when the gateway answered one.
    let suite = root.path().join("claim-suite");
    claimer_task(&suite, "lc-forged-summary", "Write done.txt.\n");
    claimer_task(
        &suite,
        "lc-asked-summary",
        "Write done.txt; ask for a summary first.\n",
    );
    claimer_task(&suite, "lc-no-claim", "Write done.txt; claim nothing.\n");
    let claimer = root.path().join("claimer.py");
    write_exec(&claimer, CLAIMER);
    let run_id = unique("compaction-claim");
    let _sweep2 = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("claim-out");
    let agent_arg = format!("command:{}", claimer.display());
    let o = nab_run(&run_id, &out, &suite, &agent_arg);
    let recs = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records;
    assert_eq!(recs.len(), 3, "{}", show(&o));
    let forged = record(&recs, "lc-forged-summary");
    assert_missing_compaction(forged);
    assert!(
        forged.behaviour.violations[0].contains("no summarization request"),
        "{:?}",
        forged.behaviour.violations
    );
    let asked = record(&recs, "lc-asked-summary");
    assert_eq!(
        asked.outcome.status,
        TrialStatus::Passed,
        "{asked:?}\n{}",
        show(&o)
    );
    assert_eq!(asked.usage.llm_calls, Some(1), "{asked:?}");
    assert_eq!(
        asked.outcome.compaction,
        Some(CompactionCheck::Met),
        "{asked:?}"
    );
    // An agent that claims no compaction is scored on its answers alone, and its record and
    // log say the requirement was not judged.
    let plain = record(&recs, "lc-no-claim");
    assert_eq!(
        plain.outcome.status,
        TrialStatus::Passed,
        "{plain:?}\n{}",
        show(&o)
    );
    assert_eq!(
        plain.outcome.compaction,
        Some(CompactionCheck::NotJudged),
        "{plain:?}"
    );
    assert_eq!(plain.outcome.verifier_passed, Some(true), "{plain:?}");
    let log = std::fs::read_to_string(out.join("trials/lc-no-claim/0/agent.log")).unwrap();
    assert!(log.contains("it is not judged for this agent"), "{log}");
}
