//! The three tiers together, behind the loop's [`ContextManager`] seam: before every model
//! call, cheapest first — offload big outputs, clear old tool results at 60% of the
//! summary threshold, summarize at the threshold — with one `compaction` event per action.
//!
//! Counting waits (issue 18): while the tokenizer is not loaded and a byte-based upper bound
//! of the request ([`TokenCounter::bound_history_raw`], scaled by the largest calibration
//! factor) stays below the clear threshold, no decision can depend on the exact count, so
//! none is made. The calibration that needs the previous request's count is queued with a
//! snapshot of that history (pointers, no text) and replayed, in order, before the first
//! exact count — the factor then is exactly what counting every step would have made it.

use super::clear::{KEEP_RECENT_TOOL_RESULTS, clear_old_tool_results};
use super::offload::Offloader;
use super::summarize::{CHUNK_CHARS, Summarizer, clear_threshold, summarize, summary_threshold};
use super::tokens::{self, TokenCounter};
use super::{ContextError, ContextManager, ContextState};
use crate::message::{Message, Role};
use crate::tools::ToolRegistry;
use nab_protocol::{CompactionTier, EventKind};
use std::path::Path;
use std::sync::Arc;

/// The window assumed when `--context-window` is not given.
pub const DEFAULT_WINDOW: usize = 128_000;

/// What the last request was, for calibration.
enum LastRequest {
    /// Its unscaled tokens.
    Counted(usize),
    /// Not counted yet (the tokenizer was not needed).
    Uncounted(Uncounted),
}

#[derive(Clone)]
struct Uncounted {
    /// The history as sent: pointers to the same messages, no text copied.
    history: Vec<Arc<Message>>,
    tools_json: Option<String>,
}

pub struct ThreeTier {
    window: Option<usize>,
    counter: Arc<TokenCounter>,
    summarizer: Arc<dyn Summarizer>,
    registry: Option<Arc<ToolRegistry>>,
    offloader: Option<(std::path::PathBuf, Offloader)>,
    /// The last request, to calibrate against the reported usage.
    last_request: Option<LastRequest>,
    /// Calibrations waiting for the tokenizer: (request, reported `prompt_tokens`).
    pending: Vec<(Uncounted, u64)>,
    /// Tokens when a summary was last abandoned: not retried until the history grows.
    abandoned_at: Option<usize>,
}

impl ThreeTier {
    /// `window` overrides the loop's `--context-window` (tests); `None` uses the loop's, or
    /// [`DEFAULT_WINDOW`].
    pub fn new(summarizer: Arc<dyn Summarizer>) -> ThreeTier {
        ThreeTier {
            window: None,
            counter: Arc::new(TokenCounter::default()),
            summarizer,
            registry: None,
            offloader: None,
            last_request: None,
            pending: Vec::new(),
            abandoned_at: None,
        }
    }

    pub fn with_window(mut self, window: usize) -> ThreeTier {
        self.window = Some(window);
        self
    }

    /// Counts the tool schemas sent with every request as part of it.
    pub fn with_registry(mut self, registry: Arc<ToolRegistry>) -> ThreeTier {
        self.registry = Some(registry);
        self
    }

    pub fn counter(&self) -> &Arc<TokenCounter> {
        &self.counter
    }

    fn offloader(&mut self, state_dir: &Path) -> &Offloader {
        if self.offloader.as_ref().is_some_and(|(d, _)| d != state_dir) {
            self.offloader = None;
        }
        &self
            .offloader
            .get_or_insert_with(|| (state_dir.to_path_buf(), Offloader::new(state_dir)))
            .1
    }

    fn tools_json(&self) -> Option<String> {
        self.registry
            .as_ref()
            .map(|r| serde_json::Value::Array(r.schemas()).to_string())
    }

    /// Applies the queued calibrations, oldest first.
    fn settle(&mut self) {
        for (request, reported) in std::mem::take(&mut self.pending) {
            let raw = self.counter.count_history_raw(&request.history)
                + request
                    .tools_json
                    .as_deref()
                    .map_or(0, |t| self.counter.count_text(t));
            self.counter.calibrate(raw, reported);
        }
    }

    fn tools_tokens(&self) -> usize {
        self.registry.as_ref().map_or(0, |r| {
            self.counter
                .count_json(&serde_json::Value::Array(r.schemas()))
        })
    }

    /// Unscaled tokens of a request (what the provider's `prompt_tokens` is compared with).
    fn request_tokens_raw(&self, history: &[Arc<Message>]) -> usize {
        let tools = self.registry.as_ref().map_or(0, |r| {
            self.counter
                .count_text(&serde_json::Value::Array(r.schemas()).to_string())
        });
        self.counter.count_history_raw(history) + tools
    }

    /// Tokens of the request this history makes (messages and tool schemas).
    pub fn request_tokens(&mut self, history: &[Arc<Message>]) -> usize {
        self.settle();
        self.counter.count_history(history) + self.tools_tokens()
    }

    /// At least [`ThreeTier::request_tokens`], without a tokenizer.
    fn request_tokens_bound(&self, history: &[Arc<Message>], tools_json: Option<&str>) -> usize {
        TokenCounter::bound_scaled(TokenCounter::bound_history_raw(history))
            + tools_json.map_or(0, |t| TokenCounter::bound_scaled(t.len()))
    }

    fn event(
        step: u32,
        tier: CompactionTier,
        before: (usize, usize),
        after: (usize, usize),
        ok: bool,
        detail: String,
    ) -> EventKind {
        EventKind::Compaction {
            step,
            tier,
            tokens_before: before.0 as u64,
            tokens_after: after.0 as u64,
            messages_before: before.1 as u32,
            messages_after: after.1 as u32,
            succeeded: ok,
            detail: Some(detail),
        }
    }

    /// Tier 1 on one text: offloaded when over the threshold.
    fn offload_text(
        &mut self,
        step: u32,
        tool_call_id: &str,
        text: String,
        state_dir: &Path,
        msgs: usize,
    ) -> (String, Option<EventKind>) {
        if !Offloader::wants(&text) {
            return (text, None);
        }
        let before = self.counter.count_text(&text);
        match self.offloader(state_dir).offload(tool_call_id, &text) {
            Ok(stub) => {
                let after = self.counter.count_text(&stub);
                let detail = super::offload::offloaded_path(&stub)
                    .map(|p| format!("output of {tool_call_id} → {p}"))
                    .unwrap_or_default();
                let e = Self::event(
                    step,
                    CompactionTier::Offload,
                    (before, msgs),
                    (after, msgs),
                    true,
                    detail,
                );
                (stub, Some(e))
            }
            Err(err) => {
                let detail = format!(
                    "could not write the output of {tool_call_id} to {}: {err}",
                    state_dir.display()
                );
                let e = Self::event(
                    step,
                    CompactionTier::Offload,
                    (before, msgs),
                    (before, msgs),
                    false,
                    detail,
                );
                (text, Some(e))
            }
        }
    }

    /// All three tiers on a history; what [`ContextManager::before_model_call`] does.
    pub async fn manage(
        &mut self,
        history: &mut Vec<Arc<Message>>,
        step: u32,
        window: usize,
        state_dir: &Path,
    ) -> Result<Vec<EventKind>, ContextError> {
        let mut events = self.offload_history(history, step, state_dir);
        // Below every threshold, whatever the exact count: leave it for later.
        if !tokens::tokenizer_loaded() && self.surely_below_thresholds(history, window) {
            return Ok(events);
        }
        events.extend(self.clear_tier(history, step, window));
        events.extend(self.summarize_tier(history, step, window).await);

        let tokens = self.request_tokens(history);
        self.last_request = Some(LastRequest::Counted(self.request_tokens_raw(history)));
        if tokens > window {
            return Err(ContextError::Overflow(format!(
                "the request needs about {tokens} tokens but the window is {window} and compaction could not make room"
            )));
        }
        Ok(events)
    }

    /// Tier 1: any tool result still over the limit (normally caught on entry).
    fn offload_history(
        &mut self,
        history: &mut [Arc<Message>],
        step: u32,
        state_dir: &Path,
    ) -> Vec<EventKind> {
        let mut events = Vec::new();
        for i in 0..history.len() {
            if history[i].role != Role::Tool
                || !history[i].content.as_deref().is_some_and(Offloader::wants)
            {
                continue;
            }
            let id = history[i].tool_call_id.clone().unwrap_or_default();
            let text = history[i].content.clone().unwrap_or_default();
            let n = history.len();
            let (new, e) = self.offload_text(step, &id, text, state_dir, n);
            let mut m = (*history[i]).clone();
            m.content = Some(new);
            history[i] = Arc::new(m);
            events.extend(e);
        }
        events
    }

    /// Without a tokenizer: whether an upper bound of the request is below every threshold,
    /// so no tier can act whatever the exact count. The request is then kept uncounted, to
    /// be calibrated against later (see the module docs).
    fn surely_below_thresholds(&mut self, history: &[Arc<Message>], window: usize) -> bool {
        let tools_json = self.tools_json();
        let bound = self.request_tokens_bound(history, tools_json.as_deref());
        let lowest = clear_threshold(window)
            .min(summary_threshold(window))
            .min(window);
        if bound >= lowest {
            return false;
        }
        self.last_request = Some(LastRequest::Uncounted(Uncounted {
            history: history.to_vec(),
            tools_json,
        }));
        true
    }

    /// Tier 2: at the clear threshold, old tool results are cleared.
    fn clear_tier(
        &mut self,
        history: &mut [Arc<Message>],
        step: u32,
        window: usize,
    ) -> Option<EventKind> {
        let tokens = self.request_tokens(history);
        if tokens < clear_threshold(window) {
            return None;
        }
        let cleared = clear_old_tool_results(history, KEEP_RECENT_TOOL_RESULTS);
        if cleared == 0 {
            return None;
        }
        let after = self.request_tokens(history);
        Some(Self::event(
            step,
            CompactionTier::Clear,
            (tokens, history.len()),
            (after, history.len()),
            true,
            format!(
                "{cleared} older tool results cleared; the {KEEP_RECENT_TOOL_RESULTS} most recent kept"
            ),
        ))
    }

    /// Tier 3: at the summary threshold the older history is summarized, unless a summary
    /// was abandoned recently and the history has not grown much since.
    async fn summarize_tier(
        &mut self,
        history: &mut Vec<Arc<Message>>,
        step: u32,
        window: usize,
    ) -> Option<EventKind> {
        let tokens = self.request_tokens(history);
        let threshold = summary_threshold(window);
        let retry = self
            .abandoned_at
            .is_none_or(|t| tokens > t + window / 20 || tokens > window);
        if tokens < threshold || !retry {
            return None;
        }
        // The recent turns may use at most a fifth of the threshold, so that after the
        // summary the agent has room to work before the next compaction.
        let keep_budget = threshold / 5;
        let chunk_chars = CHUNK_CHARS.min(window.saturating_mul(2)).max(4_000);
        let (rebuilt, report) = summarize(
            history,
            &self.counter,
            &*self.summarizer,
            keep_budget,
            chunk_chars,
        )
        .await;
        let before = (tokens, history.len());
        let (after, ok) = match rebuilt {
            Some(h) => {
                *history = h;
                self.abandoned_at = None;
                ((self.request_tokens(history), history.len()), true)
            }
            None => {
                self.abandoned_at = Some(tokens);
                (before, false)
            }
        };
        Some(Self::event(
            step,
            CompactionTier::Summarize,
            before,
            after,
            ok,
            report.detail,
        ))
    }
}

#[async_trait::async_trait]
impl ContextManager for ThreeTier {
    async fn before_model_call(
        &mut self,
        state: ContextState<'_>,
    ) -> Result<Vec<EventKind>, ContextError> {
        match (&self.last_request, state.last_usage) {
            (Some(LastRequest::Counted(raw)), Some(usage)) => {
                let raw = *raw;
                // Counted requests come after every queued one was applied.
                self.settle();
                self.counter.calibrate(raw, usage.prompt_tokens);
            }
            (Some(LastRequest::Uncounted(request)), Some(usage)) => {
                let request = request.clone();
                self.pending.push((request, usage.prompt_tokens));
            }
            _ => {}
        }
        let window = self
            .window
            .or(state.context_window.map(|w| w as usize))
            .unwrap_or(DEFAULT_WINDOW);
        self.manage(state.history, state.step, window, state.state_dir)
            .await
    }

    async fn on_tool_result(
        &mut self,
        step: u32,
        _tool_name: &str,
        tool_call_id: &str,
        text: String,
        state_dir: &Path,
    ) -> (String, Vec<EventKind>) {
        let (text, e) = self.offload_text(step, tool_call_id, text, state_dir, 0);
        (text, e.into_iter().collect())
    }
}
