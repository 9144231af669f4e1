//! Tier 3: near the window, the older history is summarized by the model.
//!
//! - Threshold: `window − 20,000 (room for the summary) − 13,000 (buffer)`, never less than
//!   `window / 2`.
//! - The last 3 user turns stay as they are; everything between the system prompt and them
//!   is rendered as text, cut into chunks of at most 60,000 characters, each chunk
//!   summarized, and the chunk summaries merged.
//! - The summary must have four sections in order ([`SECTIONS`]) and be smaller than what
//!   it replaces. If not, the model is asked once to repair it; if that fails too, the
//!   compaction is abandoned and the history is kept as it was.
//! - The new history: system prompt → the summary (user) → a short acknowledgement
//!   (assistant) → the recent turns. Cuts fall only at user-message boundaries, so a tool
//!   call and its result are never separated.
//!
//! One case needs more than that: a coding agent given a single instruction has one user
//! message, so there is nothing older than the "last 3 user turns" to summarize, and the
//! recent turns alone may not fit. Then fewer user turns are kept (2, then 1), and as a last
//! resort the cut falls at a *step* boundary (an assistant message whose earlier tool calls
//! are all answered) — still never between a call and its result. The recent part then
//! starts with that assistant message, so it follows the summary directly (no
//! acknowledgement, which would make two assistant messages in a row). The original
//! instruction is quoted in the summary message either way.

use super::tokens::TokenCounter;
use super::validity::check_history;
use crate::client::ClientError;
use crate::message::{Message, Role};
use std::sync::Arc;

pub const SUMMARY_ROOM_TOKENS: usize = 20_000;
pub const BUFFER_TOKENS: usize = 13_000;
pub const KEEP_USER_TURNS: usize = 3;
pub const CHUNK_CHARS: usize = 60_000;
/// A single old message is cut to this many characters before summarizing.
const MESSAGE_CHARS: usize = 6_000;
/// The original instruction quoted in the summary message, at most.
const INSTRUCTION_CHARS: usize = 4_000;

/// Summarize when the request reaches this many tokens.
pub fn summary_threshold(window: usize) -> usize {
    window
        .saturating_sub(SUMMARY_ROOM_TOKENS + BUFFER_TOKENS)
        .max(window / 2)
}

/// Clear old tool results at 60% of the summary threshold.
pub fn clear_threshold(window: usize) -> usize {
    summary_threshold(window) * 6 / 10
}

/// The four sections, in order: (heading, what it holds, the words that identify it).
pub const SECTIONS: [(&str, &str, &str); 4] = [
    (
        "1. Current goal and success criteria",
        "what the task is and how success is checked",
        "goal",
    ),
    (
        "2. User requirements and confirmed decisions",
        "constraints the user gave and decisions already made",
        "requirement",
    ),
    (
        "3. Work done and evidence",
        "files changed, commands run, test results, with exact paths and outputs",
        "work done",
    ),
    (
        "4. Open problems and next steps",
        "what is still failing or unknown, and the next concrete steps",
        "next step",
    ),
];

pub const SUMMARY_HEADER: &str = "[nab-agent: context summary] The earlier part of this conversation was compacted into the summary below.";
pub const ACK: &str =
    "Understood. I have the summary of the earlier work and will continue from it.";

/// Whoever writes summaries: the model, through a plain (tool-less) completion.
#[async_trait::async_trait]
pub trait Summarizer: Send + Sync {
    async fn complete(&self, system: &str, prompt: &str) -> Result<String, SummaryError>;
}

/// Why a summary call gave no summary (the compaction is then abandoned).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SummaryError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("the model answered the summary request with no text")]
    NoText,
}

/// What is wrong with the four sections: every problem found, in order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("; "))]
pub struct SectionsError(pub Vec<String>);

/// Why a summary is not acceptable; the model is told this when asked to repair it.
#[derive(Debug, thiserror::Error)]
enum Unacceptable {
    #[error(transparent)]
    Sections(#[from] SectionsError),
    #[error(
        "the summary ({tokens} tokens) is not smaller than what it replaces ({replaced} tokens)"
    )]
    NotSmaller { tokens: usize, replaced: usize },
}

pub fn system_prompt() -> String {
    // The marker opens the message so a scripted model (and a reader of a transcript) can
    // tell summary requests from working turns.
    let mut s = format!(
        "{} You compress the history of a coding agent's work so that it can continue with less context. \
         Keep exact file paths, function names, commands, error messages, numbers and decisions; drop \
         chatter and anything already superseded. Answer with exactly these four Markdown sections, in \
         this order, each non-empty, and nothing else:\n",
        nab_protocol::SUMMARY_REQUEST_MARKER
    );
    for (h, what, _) in SECTIONS {
        s.push_str(&format!("## {h}\n({what})\n"));
    }
    s
}

/// Checks the four sections (present, in order, non-empty). The error names what is wrong.
pub fn validate_sections(summary: &str) -> Result<(), SectionsError> {
    let lines: Vec<&str> = summary.lines().collect();
    let headings: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            (
                i,
                l.trim_start().trim_start_matches('#').trim().to_lowercase(),
            )
        })
        .collect();
    let mut from = 0; // index into headings
    let mut problems = Vec::new();
    let mut found_at: Vec<usize> = Vec::new();
    for (n, (title, _, key)) in SECTIONS.iter().enumerate() {
        match headings[from..].iter().position(|(_, h)| h.contains(key)) {
            Some(p) => {
                found_at.push(from + p);
                from += p + 1;
            }
            None => problems.push(format!(
                "section {} \"{title}\" is missing or out of order",
                n + 1
            )),
        }
    }
    for &h in &found_at {
        let start = headings[h].0 + 1;
        let end = headings.get(h + 1).map_or(lines.len(), |(i, _)| *i);
        if lines[start..end].iter().all(|l| l.trim().is_empty()) {
            problems.push(format!("section \"{}\" is empty", headings[h].1));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(SectionsError(problems))
    }
}

/// Where the history is cut: `history[cut..]` is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Before a user message; `turns` user turns are kept.
    User { index: usize, turns: usize },
    /// Before an assistant message whose earlier calls are all answered.
    Step { index: usize },
}

impl Cut {
    pub fn index(&self) -> usize {
        match self {
            Cut::User { index, .. } | Cut::Step { index } => *index,
        }
    }
}

fn system_len(history: &[Arc<Message>]) -> usize {
    history
        .iter()
        .take_while(|m| m.role == Role::System)
        .count()
}

/// Picks the cut that keeps the most recent turns within `keep_budget` tokens while
/// leaving something older to summarize.
pub fn plan_cut(
    history: &[Arc<Message>],
    counter: &TokenCounter,
    keep_budget: usize,
) -> Option<Cut> {
    let sys = system_len(history);
    // Suffix token sums: kept(i) = tokens of history[i..].
    let mut kept = vec![0usize; history.len() + 1];
    for i in (0..history.len()).rev() {
        kept[i] = kept[i + 1] + counter.count_message(&history[i]);
    }
    let users: Vec<usize> = (sys..history.len())
        .filter(|&i| history[i].role == Role::User)
        .collect();
    for turns in (1..=KEEP_USER_TURNS).rev() {
        if users.len() < turns {
            continue;
        }
        let index = users[users.len() - turns];
        if index > sys && kept[index] <= keep_budget {
            return Some(Cut::User { index, turns });
        }
    }
    // Step boundaries, earliest first (keeps the most).
    (sys + 2..history.len())
        .filter(|&i| {
            history[i].role == Role::Assistant
                && matches!(history[i - 1].role, Role::Tool | Role::User)
        })
        .find(|&i| kept[i] <= keep_budget)
        .map(|index| Cut::Step { index })
}

/// One old message as text for the summarizer.
fn render(m: &Message) -> String {
    let mut s = match m.role {
        Role::System => "[system]".to_string(),
        Role::User => "[user]".to_string(),
        Role::Assistant => "[assistant]".to_string(),
        Role::Tool => format!("[tool result {}]", m.tool_call_id.as_deref().unwrap_or("?")),
    };
    if let Some(c) = m.content.as_deref().filter(|c| !c.is_empty()) {
        s.push(' ');
        s.push_str(&cut_middle(c, MESSAGE_CHARS));
    }
    for c in &m.tool_calls {
        s.push_str(&format!(
            "\n  → calls {} {} (id {})",
            c.function.name,
            cut_middle(&c.function.arguments, 1_000),
            c.id
        ));
    }
    s.push('\n');
    s
}

fn cut_middle(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let head = max * 3 / 4;
    let tail = max - head;
    let h: String = text.chars().take(head).collect();
    let t: String = text.chars().skip(n - tail).collect();
    format!("{h} […{} characters…] {t}", n - max)
}

/// Renders messages and packs them into chunks of at most `max_chars` characters, at
/// message boundaries (a single message is never longer than a chunk after rendering).
pub fn chunk_messages(messages: &[Arc<Message>], max_chars: usize) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut cur = String::new();
    for m in messages {
        let mut r = render(m);
        if r.chars().count() > max_chars {
            r = cut_middle(&r, max_chars);
        }
        if !cur.is_empty() && cur.chars().count() + r.chars().count() > max_chars {
            chunks.push(std::mem::take(&mut cur));
        }
        cur.push_str(&r);
    }
    if !cur.is_empty() {
        chunks.push(cur);
    }
    chunks
}

/// How a summary attempt went (for the compaction event).
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryReport {
    pub succeeded: bool,
    pub detail: String,
    /// Model calls made for it (chunks, merge, repair).
    pub calls: usize,
    pub chunks: usize,
    pub repaired: bool,
}

/// Summarizes the older part of `history` and returns the rebuilt history, or `None` with
/// the reason when the compaction was abandoned (the caller keeps the old history).
pub async fn summarize(
    history: &[Arc<Message>],
    counter: &TokenCounter,
    summarizer: &dyn Summarizer,
    keep_budget: usize,
    chunk_chars: usize,
) -> (Option<Vec<Arc<Message>>>, SummaryReport) {
    let mut report = SummaryReport {
        succeeded: false,
        detail: String::new(),
        calls: 0,
        chunks: 0,
        repaired: false,
    };
    let sys = system_len(history);
    let Some(cut) = plan_cut(history, counter, keep_budget) else {
        report.detail =
            "no cut point leaves the recent turns within budget and something older to summarize"
                .into();
        return (None, report);
    };
    let older = &history[sys..cut.index()];
    let recent = &history[cut.index()..];
    let older_tokens = counter.count_history(older);
    let chunks = chunk_messages(older, chunk_chars);
    report.chunks = chunks.len();
    let calls = SummaryCalls {
        summarizer,
        system: system_prompt(),
    };
    let Some(summary) = calls.draft(&chunks, &mut report).await else {
        return (None, report);
    };
    let check = |s: &str| acceptable(s, counter, older_tokens);
    let Some(summary) = calls.repair_if_needed(summary, check, &mut report).await else {
        return (None, report);
    };

    let rebuilt = rebuild(history, sys, cut, &summary);
    if let Err(e) = check_history(&rebuilt) {
        report.detail = format!("the rebuilt history would be invalid ({e}); compaction abandoned");
        return (None, report);
    }
    report.succeeded = true;
    report.detail = success_detail(older.len(), recent.len(), &report, cut);
    (Some(rebuilt), report)
}

/// A summary is acceptable when its four sections are right and it is smaller than the
/// `replaced` tokens of history.
fn acceptable(summary: &str, counter: &TokenCounter, replaced: usize) -> Result<(), Unacceptable> {
    validate_sections(summary)?;
    let tokens = counter.count_text(summary);
    if tokens >= replaced {
        return Err(Unacceptable::NotSmaller { tokens, replaced });
    }
    Ok(())
}

/// The model calls of one summary, all with the summary system prompt. Each method counts
/// its calls in the report and, when it gives up (`None`), says why in `report.detail`.
struct SummaryCalls<'a> {
    summarizer: &'a dyn Summarizer,
    system: String,
}

impl SummaryCalls<'_> {
    /// The first summary: of the single chunk, or of each chunk and then their merge.
    async fn draft(&self, chunks: &[String], report: &mut SummaryReport) -> Option<String> {
        if chunks.len() == 1 {
            report.calls += 1;
            let prompt = format!(
                "Summarize this history of the agent's work:\n\n<history>\n{}</history>",
                chunks[0]
            );
            return self
                .ask(&prompt, report, |e| format!("the summary call failed: {e}"))
                .await;
        }
        let mut parts = Vec::new();
        for (i, c) in chunks.iter().enumerate() {
            report.calls += 1;
            let prompt = format!(
                "Summarize part {} of {} of the agent's history (later parts follow separately):\n\n<history>\n{c}</history>",
                i + 1,
                chunks.len()
            );
            let part = self
                .ask(&prompt, report, |e| {
                    format!("summary call for chunk {} failed: {e}", i + 1)
                })
                .await?;
            parts.push(part);
        }
        report.calls += 1;
        let mut prompt = String::from(
            "Merge these summaries of consecutive parts of the agent's history into one summary. \
             Later parts supersede earlier ones where they disagree.\n",
        );
        for (i, p) in parts.iter().enumerate() {
            prompt.push_str(&format!("\n<part n=\"{}\">\n{p}\n</part>\n", i + 1));
        }
        self.ask(&prompt, report, |e| format!("the merge call failed: {e}"))
            .await
    }

    /// `summary` when `check` accepts it; else the model is asked once to repair it, and
    /// the repair must pass `check` too.
    async fn repair_if_needed(
        &self,
        summary: String,
        check: impl Fn(&str) -> Result<(), Unacceptable>,
        report: &mut SummaryReport,
    ) -> Option<String> {
        let Err(problem) = check(&summary) else {
            return Some(summary);
        };
        report.calls += 1;
        report.repaired = true;
        let prompt = format!(
            "This summary is not acceptable: {problem}. Rewrite it with exactly the four sections, in \
             order, each non-empty, shorter than before:\n\n<summary>\n{summary}\n</summary>"
        );
        let repaired = self
            .ask(&prompt, report, |e| {
                format!("the repair call failed: {e}; compaction abandoned")
            })
            .await?;
        if let Err(problem) = check(&repaired) {
            report.detail = format!(
                "the repaired summary is still not acceptable ({problem}); compaction abandoned"
            );
            return None;
        }
        Some(repaired)
    }

    /// One call; on failure `report.detail` is what `failed` says of the error.
    async fn ask(
        &self,
        prompt: &str,
        report: &mut SummaryReport,
        failed: impl FnOnce(SummaryError) -> String,
    ) -> Option<String> {
        match self.summarizer.complete(&self.system, prompt).await {
            Ok(s) => Some(s),
            Err(e) => {
                report.detail = failed(e);
                None
            }
        }
    }
}

/// The report's detail of a compaction that succeeded.
fn success_detail(older: usize, recent: usize, report: &SummaryReport, cut: Cut) -> String {
    format!(
        "{} older messages summarized in {} chunk(s) with {} model call(s){}; kept {} recent messages ({})",
        older,
        report.chunks,
        report.calls,
        if report.repaired {
            ", repaired once"
        } else {
            ""
        },
        recent,
        match cut {
            Cut::User { turns, .. } => format!("last {turns} user turns"),
            Cut::Step { .. } => "recent steps of the current turn".into(),
        }
    )
}

/// system prompt → summary (user) → acknowledgement (assistant, when the recent part starts
/// with a user message) → recent turns.
fn rebuild(history: &[Arc<Message>], sys: usize, cut: Cut, summary: &str) -> Vec<Arc<Message>> {
    let mut text = format!("{SUMMARY_HEADER}\n\n{}", summary.trim());
    // The first user message after the system prompt is the task (or an earlier summary,
    // which already quotes it).
    if let Some(first) = history[sys..cut.index()]
        .iter()
        .find(|m| m.role == Role::User)
        && let Some(c) = first.content.as_deref()
    {
        let quoted = match c.find("\n\nThe original instruction, verbatim:\n") {
            Some(at) if c.starts_with(SUMMARY_HEADER) => c[at..].trim_start().to_string(),
            _ => format!(
                "The original instruction, verbatim:\n{}",
                cut_middle(c, INSTRUCTION_CHARS)
            ),
        };
        text.push_str("\n\n");
        text.push_str(&quoted);
    }
    let mut out: Vec<Arc<Message>> = history[..sys].to_vec();
    out.push(Arc::new(Message::user(text)));
    let recent = &history[cut.index()..];
    if recent.first().is_some_and(|m| m.role == Role::User) {
        out.push(Arc::new(Message {
            role: Role::Assistant,
            content: Some(ACK.into()),
            reasoning: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }));
    }
    out.extend(recent.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> String {
        SECTIONS
            .iter()
            .map(|(h, _, _)| format!("## {h}\n- something\n"))
            .collect()
    }

    #[test]
    fn the_summary_system_prompt_is_recognisable_as_a_summary_request() {
        let request = serde_json::json!({"messages": [
            {"role": "system", "content": system_prompt()},
            {"role": "user", "content": "Summarize this history"}]});
        assert!(nab_protocol::is_summary_request(&request));
    }

    #[test]
    fn thresholds_follow_the_formula() {
        assert_eq!(summary_threshold(128_000), 95_000);
        assert_eq!(summary_threshold(24_000), 12_000);
        assert_eq!(summary_threshold(60_000), 30_000);
        assert_eq!(summary_threshold(70_000), 37_000);
        assert_eq!(clear_threshold(128_000), 57_000);
    }

    #[test]
    fn sections_are_checked_in_order_and_non_empty() {
        assert_eq!(validate_sections(&good()), Ok(()));
        let missing = good().replace("## 3. Work done and evidence\n- something\n", "");
        assert!(
            validate_sections(&missing)
                .unwrap_err()
                .to_string()
                .contains("section 3")
        );
        let swapped = "## Open problems and next steps\nx\n## Current goal\nx\n## Requirements\nx\n## Work done\nx\n";
        assert!(
            validate_sections(swapped)
                .unwrap_err()
                .to_string()
                .contains("section 4")
        );
        let empty = good().replace(
            "## 2. User requirements and confirmed decisions\n- something\n",
            "## 2. User requirements and confirmed decisions\n\n",
        );
        assert!(
            validate_sections(&empty)
                .unwrap_err()
                .to_string()
                .contains("is empty")
        );
    }

    #[test]
    fn chunks_respect_the_limit_at_message_boundaries() {
        let msgs: Vec<Arc<Message>> = (0..50)
            .map(|i| Arc::new(Message::user(format!("{i} ").repeat(2_000))))
            .collect();
        let chunks = chunk_messages(&msgs, CHUNK_CHARS);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.chars().count() <= CHUNK_CHARS));
        assert_eq!(
            chunks
                .iter()
                .map(|c| c.matches("[user]").count())
                .sum::<usize>(),
            50
        );
    }
}
