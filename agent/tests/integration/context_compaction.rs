//! Three-tier context management on a long recorded-looking transcript
//! (tests/fixtures/long_transcript.jsonl: 316 messages, 12 user turns, ~900k characters),
//! with a scripted model writing the summaries.
//!
//! The replay feeds the transcript to the context manager the way the agent loop does:
//! tool results through `on_tool_result`, and `before_model_call` before every assistant
//! turn. After every step the history must pass `check_history` and fit the window.

use nab_agent::TokenCounter;
use nab_agent::context::summarize::{ACK, CHUNK_CHARS, SECTIONS, summarize, system_prompt};
use nab_agent::{CLEARED_MARKER, clear_old_tool_results};
use nab_agent::{ContextManager, Summarizer, SummaryError, ThreeTier, check_history};
use nab_agent::{Message, Role};
use nab_agent::{OFFLOAD_MARKER, offloaded_path};
use nab_agent::{SUMMARY_HEADER, clear_threshold, summary_threshold};
use nab_protocol::{CompactionTier, EventKind};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

fn transcript() -> Vec<Message> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/long_transcript.jsonl");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// How the scripted summarizer answers.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Script {
    /// Four sections built from what the prompt contains.
    Good,
    /// The first answer lacks section 3; the repair is good.
    MissingThenRepaired,
    /// Every answer lacks section 3.
    AlwaysMissing,
    /// Every answer repeats the prompt: complete but not smaller.
    Bloated,
}

struct Scripted {
    script: Script,
    prompts: Mutex<Vec<String>>,
}

impl Scripted {
    fn new(script: Script) -> Arc<Scripted> {
        Arc::new(Scripted {
            script,
            prompts: Mutex::new(Vec::new()),
        })
    }
    fn calls(&self) -> usize {
        self.prompts.lock().unwrap().len()
    }
    /// Tokens of the largest summary request (system prompt + prompt).
    fn largest_request(&self) -> usize {
        let counter = TokenCounter::default();
        let system = system_prompt();
        self.prompts
            .lock()
            .unwrap()
            .iter()
            .map(|p| {
                counter.count_history(&[Message::system(system.clone()), Message::user(p.clone())])
            })
            .max()
            .unwrap_or(0)
    }
}

/// A summary a model could write: the facts it can pull out of the rendered history.
fn summary_of(prompt: &str, with_work_section: bool) -> String {
    let mut paths = BTreeSet::new();
    for part in prompt.split("\"path\":\"").skip(1) {
        if let Some(end) = part.find('"') {
            paths.insert(part[..end].to_string());
        }
    }
    let paths: Vec<String> = paths.into_iter().take(12).collect();
    let results: Vec<&str> = prompt
        .lines()
        .filter(|l| l.contains(" passed in ") || l.contains("passed,"))
        .take(4)
        .collect();
    let requests: Vec<String> = prompt
        .lines()
        .filter_map(|l| l.strip_prefix("[user] "))
        .map(|l| l.chars().take(160).collect())
        .collect();
    let mut s = format!(
        "## {}\nFinish the developer's latest request: {}\nSuccess: the test suite passes.\n",
        SECTIONS[0].0,
        requests
            .last()
            .cloned()
            .unwrap_or_else(|| "continue the current task".into())
    );
    s.push_str(&format!("## {}\n", SECTIONS[1].0));
    for r in requests.iter().take(6) {
        s.push_str(&format!("- {r}\n"));
    }
    if requests.is_empty() {
        s.push_str("- keep the public API unchanged\n");
    }
    if with_work_section {
        s.push_str(&format!(
            "## {}\n- Files read or edited: {}\n",
            SECTIONS[2].0,
            paths.join(", ")
        ));
        for r in &results {
            s.push_str(&format!("- Test run: {}\n", r.trim_matches('=').trim()));
        }
    }
    s.push_str(&format!(
        "## {}\n- Re-run the tests after the last edit.\n- Check the remaining failures in tests/test_export.py.\n",
        SECTIONS[3].0
    ));
    s
}

#[async_trait::async_trait]
impl Summarizer for Scripted {
    async fn complete(&self, system: &str, prompt: &str) -> Result<String, SummaryError> {
        assert!(
            system.contains(SECTIONS[2].0),
            "the system prompt names the sections"
        );
        let n = {
            let mut p = self.prompts.lock().unwrap();
            p.push(prompt.to_string());
            p.len()
        };
        let repair = prompt.starts_with("This summary is not acceptable");
        Ok(match self.script {
            Script::Good => summary_of(prompt, true),
            Script::MissingThenRepaired => summary_of(prompt, repair),
            Script::AlwaysMissing => summary_of(prompt, false),
            Script::Bloated => {
                format!("{}\n{}", summary_of(prompt, true), prompt.repeat(2 + n % 2))
            }
        })
    }
}

/// The transcript as the loop would produce it: units of (assistant + its tool results) or
/// a user message.
fn units(msgs: &[Message]) -> Vec<Vec<Message>> {
    let mut out: Vec<Vec<Message>> = Vec::new();
    for m in msgs {
        if m.role == Role::Tool {
            out.last_mut().unwrap().push(m.clone());
        } else {
            out.push(vec![m.clone()]);
        }
    }
    out
}

struct StepRecord {
    step: u32,
    before: usize,
    after: usize,
    events: Vec<EventKind>,
}

struct Replay {
    history: Vec<Arc<Message>>,
    steps: Vec<StepRecord>,
    all_events: Vec<EventKind>,
}

/// Plays `msgs` through a ThreeTier with `window`; checks validity and the window after
/// every step.
async fn replay(
    msgs: &[Message],
    window: usize,
    summarizer: Arc<Scripted>,
    state: &Path,
) -> Replay {
    let mut tt = ThreeTier::new(summarizer).with_window(window);
    let mut history: Vec<Arc<Message>> = vec![Arc::new(msgs[0].clone())];
    let mut steps = Vec::new();
    let mut all_events = Vec::new();
    let mut step = 0u32;
    for unit in units(&msgs[1..]) {
        if unit[0].role == Role::Assistant {
            step += 1;
            let before = tt.request_tokens(&history);
            let events = tt
                .manage(&mut history, step, window, state)
                .await
                .expect("fits the window");
            check_history(&history)
                .unwrap_or_else(|e| panic!("step {step}: invalid history after compaction: {e}"));
            let after = tt.request_tokens(&history);
            assert!(
                after <= window,
                "step {step}: a request of {after} tokens exceeds the window {window}"
            );
            all_events.extend(events.iter().cloned());
            steps.push(StepRecord {
                step,
                before,
                after,
                events,
            });
        }
        for m in unit {
            if m.role == Role::Tool {
                let (text, ev) = tt
                    .on_tool_result(
                        step,
                        "tool",
                        m.tool_call_id.as_deref().unwrap(),
                        m.content.clone().unwrap(),
                        state,
                    )
                    .await;
                all_events.extend(ev);
                history.push(Arc::new(Message::tool(
                    m.tool_call_id.clone().unwrap(),
                    text,
                )));
            } else {
                history.push(Arc::new(m));
            }
        }
    }
    check_history(&history).unwrap();
    Replay {
        history,
        steps,
        all_events,
    }
}

fn compactions(events: &[EventKind], tier: CompactionTier) -> Vec<(u64, u64, u32, u32, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            EventKind::Compaction {
                tier: t,
                tokens_before,
                tokens_after,
                messages_before,
                messages_after,
                succeeded,
                ..
            } if *t == tier => Some((
                *tokens_before,
                *tokens_after,
                *messages_before,
                *messages_after,
                *succeeded,
            )),
            _ => None,
        })
        .collect()
}

fn has(events: &[EventKind], tier: CompactionTier) -> bool {
    !compactions(events, tier).is_empty()
}

#[tokio::test]
async fn every_tier_triggers_at_its_threshold_and_the_history_stays_valid() {
    let msgs = transcript();
    assert!(msgs.len() >= 300, "{}", msgs.len());
    let dir = tempfile::tempdir().unwrap();
    let (workspace, state) = (dir.path().join("workspace"), dir.path().join("out/state"));
    std::fs::create_dir_all(&workspace).unwrap();
    // The window of the suite's long-context tasks: clear at 7,200 tokens, summarize at 12,000.
    let window = 24_000;
    let (clear_at, summarize_at) = (clear_threshold(window), summary_threshold(window));
    assert_eq!((clear_at, summarize_at), (7_200, 12_000));
    let summarizer = Scripted::new(Script::Good);
    let r = replay(&msgs, window, summarizer.clone(), &state).await;

    // Offload: the three outputs over 32,000 characters, each to a file outside the workspace.
    let offloads = compactions(&r.all_events, CompactionTier::Offload);
    assert_eq!(offloads.len(), 3);
    let files: Vec<_> = std::fs::read_dir(state.join("tool-outputs"))
        .unwrap()
        .collect();
    assert_eq!(files.len(), 3);
    assert_eq!(
        std::fs::read_dir(&workspace).unwrap().count(),
        0,
        "nothing written to the workspace"
    );
    let originals: Vec<&str> = msgs
        .iter()
        .filter_map(|m| m.content.as_deref())
        .filter(|c| c.len() > 32_000)
        .collect();
    for f in files {
        let text = std::fs::read_to_string(f.unwrap().path()).unwrap();
        assert!(
            originals.contains(&text.as_str()),
            "the file holds the full output"
        );
    }

    // Clear and summarize fire exactly when their thresholds are reached, never before.
    let mut first_clear = None;
    for s in &r.steps {
        let cleared = has(&s.events, CompactionTier::Clear);
        let summarized = compactions(&s.events, CompactionTier::Summarize);
        if s.before < clear_at {
            assert!(
                !cleared && summarized.is_empty(),
                "step {}: compaction below the threshold ({})",
                s.step,
                s.before
            );
        }
        if cleared {
            first_clear.get_or_insert(s.step);
        }
        for (before, _, _, _, _) in &summarized {
            assert!(
                *before as usize >= summarize_at,
                "step {}: summarized at {before}",
                s.step
            );
        }
        if summarized.is_empty() {
            assert!(
                s.after < summarize_at,
                "step {}: {} tokens left without summarizing",
                s.step,
                s.after
            );
        }
    }
    let crossing = r.steps.iter().find(|s| s.before >= clear_at).unwrap().step;
    assert_eq!(
        first_clear,
        Some(crossing),
        "the first clear happens on the first step over 60% of the threshold"
    );
    let summaries = compactions(&r.all_events, CompactionTier::Summarize);
    assert!(!summaries.is_empty(), "{summaries:?}");
    assert!(
        summaries.iter().all(|s| s.4),
        "all succeeded with a good summarizer"
    );

    // Compression of each summary step.
    let ratios: Vec<f64> = summaries
        .iter()
        .map(|(b, a, ..)| 1.0 - *a as f64 / *b as f64)
        .collect();
    let min = ratios.iter().cloned().fold(1.0, f64::min);
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    println!(
        "COMPRESSION (window {window}): {} summaries, tokens before→after {:?}; ratio min {:.1}% mean {:.1}%; {} summarizer calls",
        summaries.len(),
        summaries.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
        min * 100.0,
        mean * 100.0,
        summarizer.calls()
    );
    assert!(min >= 0.80, "compression below 80%: {ratios:?}");
    let largest = summarizer.largest_request();
    assert!(
        largest <= window,
        "a summary request of {largest} tokens exceeds the window"
    );

    // The recent turns survive a summary verbatim; the summary comes first as a user message.
    assert!(
        r.history[1]
            .content
            .as_deref()
            .unwrap()
            .starts_with(SUMMARY_HEADER)
    );
    let last_user = msgs.iter().rev().find(|m| m.role == Role::User).unwrap();
    assert!(
        r.history.iter().any(|m| m.content == last_user.content),
        "the last user turn is kept"
    );
}

#[tokio::test]
async fn whole_transcript_compression_ratio() {
    // All 316 messages at once, as if the agent resumed with the full history: every tier in
    // one call. The figure for the closing note.
    let msgs = transcript();
    let dir = tempfile::tempdir().unwrap();
    let counter = TokenCounter::default();
    let raw = counter.count_history(&msgs);
    let mut history: Vec<Arc<Message>> = msgs.into_iter().map(Arc::new).collect();
    // Clearing alone takes the history from ~189k to ~14k tokens, so a summary is needed
    // only below that: 24k (summary threshold 12,000) makes every tier act.
    let window = 24_000;
    let mut tt = ThreeTier::new(Scripted::new(Script::Good)).with_window(window);
    let events = tt
        .manage(&mut history, 1, window, dir.path())
        .await
        .unwrap();
    check_history(&history).unwrap();
    let after = tt.request_tokens(&history);
    let s = compactions(&events, CompactionTier::Summarize);
    assert_eq!(s.len(), 1, "{events:#?}");
    let (sb, sa) = (s[0].0 as f64, s[0].1 as f64);
    println!(
        "COMPRESSION (whole transcript, window {window}): raw {raw} tokens → {after} tokens after all tiers \
         ({:.1}% fewer); summary step alone {sb} → {sa} ({:.1}% fewer); {} → {} messages",
        100.0 * (1.0 - after as f64 / raw as f64),
        100.0 * (1.0 - sa / sb),
        s[0].2,
        s[0].3
    );
    assert!(after as f64 <= raw as f64 * 0.2, "{raw} -> {after}");
    assert!(1.0 - sa / sb >= 0.8);
}

#[tokio::test]
async fn a_single_instruction_run_compacts_at_step_boundaries_within_a_small_window() {
    // One instruction, then only assistant steps and tool results (how the harness runs the
    // agent): there is nothing older than "the last 3 user turns", so the cut falls between
    // steps, never between a call and its result.
    let msgs = transcript();
    let mut single: Vec<Message> = vec![msgs[0].clone(), msgs[1].clone()];
    single.extend(
        msgs[2..]
            .iter()
            .filter(|m| {
                m.role == Role::Tool || (m.role == Role::Assistant && !m.tool_calls.is_empty())
            })
            .cloned(),
    );
    let dir = tempfile::tempdir().unwrap();
    let window = 24_000;
    let r = replay(&single, window, Scripted::new(Script::Good), dir.path()).await;
    let s = compactions(&r.all_events, CompactionTier::Summarize);
    assert!(!s.is_empty() && s.iter().all(|x| x.4), "{s:?}");
    let summary = r.history[1].content.as_deref().unwrap();
    assert!(summary.starts_with(SUMMARY_HEADER));
    assert!(
        summary.contains(msgs[1].content.as_deref().unwrap()),
        "the original instruction is quoted verbatim"
    );
    assert_eq!(r.history[2].role, Role::Assistant);
    assert!(
        !r.history[2].tool_calls.is_empty(),
        "the recent part starts with a whole step"
    );
}

/// The fixture up to (not including) its `n`-th user message, with old results cleared.
fn prefix_with_user_turns(n: usize) -> Vec<Arc<Message>> {
    let msgs = transcript();
    let end = msgs
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::User)
        .nth(n)
        .map_or(msgs.len(), |(i, _)| i);
    let mut h: Vec<Arc<Message>> = msgs[..end].iter().cloned().map(Arc::new).collect();
    clear_old_tool_results(&mut h, 3);
    h
}

#[tokio::test]
async fn the_cut_keeps_the_last_three_user_turns_and_chunks_the_rest() {
    // Not cleared: the older part is well over 60,000 characters.
    let history: Vec<Arc<Message>> = transcript().into_iter().map(Arc::new).collect();
    let counter = TokenCounter::default();
    let s = Scripted::new(Script::Good);
    let (rebuilt, report) = summarize(&history, &counter, &*s, usize::MAX, CHUNK_CHARS).await;
    let rebuilt = rebuilt.unwrap_or_else(|| panic!("{report:?}"));
    check_history(&rebuilt).unwrap();
    let users: Vec<usize> = (0..history.len())
        .filter(|&i| history[i].role == Role::User)
        .collect();
    let cut = users[users.len() - 3];
    assert_eq!(rebuilt[0].role, Role::System);
    assert!(
        rebuilt[1].role == Role::User
            && rebuilt[1]
                .content
                .as_deref()
                .unwrap()
                .starts_with(SUMMARY_HEADER)
    );
    assert_eq!(
        (rebuilt[2].role, rebuilt[2].content.as_deref()),
        (Role::Assistant, Some(ACK))
    );
    assert_eq!(rebuilt.len() - 3, history.len() - cut);
    for (a, b) in rebuilt[3..].iter().zip(&history[cut..]) {
        assert!(Arc::ptr_eq(a, b), "recent turns are kept as they were");
    }
    // The older part is over 60,000 characters: several chunks, then one merge.
    let prompts = s.prompts.lock().unwrap().clone();
    assert!(report.chunks >= 2, "{report:?}");
    assert_eq!(prompts.len(), report.chunks + 1);
    for p in &prompts[..report.chunks] {
        let body = &p[p.find("<history>").unwrap()..];
        assert!(body.chars().count() <= CHUNK_CHARS + 30, "{}", body.len());
    }
    assert!(prompts.last().unwrap().starts_with("Merge these summaries"));
    assert!(!report.repaired);
}

#[tokio::test]
async fn a_summary_missing_a_section_is_repaired_once() {
    let history = prefix_with_user_turns(6);
    let s = Scripted::new(Script::MissingThenRepaired);
    let (rebuilt, report) =
        summarize(&history, &TokenCounter::default(), &*s, usize::MAX, 60_000).await;
    assert!(
        rebuilt.is_some() && report.succeeded && report.repaired,
        "{report:?}"
    );
    let last = s.prompts.lock().unwrap().last().cloned().unwrap();
    assert!(
        last.contains("section 3 \"3. Work done and evidence\" is missing"),
        "{last}"
    );
    assert_eq!(
        s.calls(),
        report.chunks + usize::from(report.chunks > 1) + 1
    );
    check_history(&rebuilt.unwrap()).unwrap();
}

#[tokio::test]
async fn a_summary_still_wrong_after_the_repair_abandons_the_compaction() {
    for script in [Script::AlwaysMissing, Script::Bloated] {
        let history = prefix_with_user_turns(6);
        let tokens = TokenCounter::default().count_history(&history);
        // A window where this history is over the summary threshold but fits.
        let window = tokens + 2_000;
        assert!(tokens >= summary_threshold(window));
        let s = Scripted::new(script);
        let mut tt = ThreeTier::new(s.clone()).with_window(window);
        let mut h = history.clone();
        let dir = tempfile::tempdir().unwrap();
        let events = tt.manage(&mut h, 9, window, dir.path()).await.unwrap();
        let summ = compactions(&events, CompactionTier::Summarize);
        assert_eq!(summ.len(), 1, "{script:?}: one event either way");
        let (before, after, mb, ma, ok) = summ[0];
        assert!(!ok, "{script:?}");
        assert_eq!((before, mb), (after, ma), "{script:?}: nothing changed");
        assert_eq!(h.len(), history.len());
        assert!(
            h.iter().zip(&history).all(|(a, b)| Arc::ptr_eq(a, b)),
            "{script:?}: the history is kept as it was"
        );
        let detail = events
            .iter()
            .find_map(|e| match e {
                EventKind::Compaction {
                    tier: CompactionTier::Summarize,
                    detail,
                    ..
                } => detail.clone(),
                _ => None,
            })
            .unwrap();
        assert!(detail.contains("abandoned"), "{detail}");
        let wanted = if script == Script::Bloated {
            "not smaller"
        } else {
            "missing"
        };
        assert!(detail.contains(wanted), "{script:?}: {detail}");
        let repairs = s
            .prompts
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.starts_with("This summary is not acceptable"))
            .count();
        assert_eq!(repairs, 1, "{script:?}: repaired exactly once");
    }
}

#[tokio::test]
async fn cleared_results_keep_their_ids_and_offloaded_ones_keep_their_path() {
    let dir = tempfile::tempdir().unwrap();
    let msgs = transcript();
    let mut tt = ThreeTier::new(Scripted::new(Script::Good));
    let big = msgs
        .iter()
        .find(|m| m.content.as_deref().is_some_and(|c| c.len() > 32_000))
        .unwrap();
    let (stub, ev) = tt
        .on_tool_result(
            1,
            "execute_command",
            "call_x",
            big.content.clone().unwrap(),
            dir.path(),
        )
        .await;
    assert!(stub.starts_with(OFFLOAD_MARKER) && ev.len() == 1);
    let path = offloaded_path(&stub).unwrap().to_string();
    let mut h: Vec<Arc<Message>> = vec![
        Arc::new(Message::user("go")),
        Arc::new(Message {
            role: Role::Assistant,
            content: None,
            reasoning: None,
            tool_calls: vec![nab_agent::ToolCall::new("call_x", "execute_command", "{}")],
            tool_call_id: None,
        }),
        Arc::new(Message::tool("call_x", stub)),
    ];
    for i in 0..3 {
        h.push(Arc::new(Message {
            role: Role::Assistant,
            content: None,
            reasoning: None,
            tool_calls: vec![nab_agent::ToolCall::new(format!("c{i}"), "read_file", "{}")],
            tool_call_id: None,
        }));
        h.push(Arc::new(Message::tool(format!("c{i}"), "x".repeat(500))));
    }
    assert_eq!(clear_old_tool_results(&mut h, 3), 1);
    let cleared = h[2].content.as_deref().unwrap();
    assert!(
        cleared.starts_with(CLEARED_MARKER) && cleared.contains(&path),
        "{cleared}"
    );
    assert_eq!(h[2].tool_call_id.as_deref(), Some("call_x"));
    check_history(&h).unwrap();
}
