//! Per-trial limits on model calls and tokens, checked before each call is forwarded, with
//! the tokens a call may use reserved while it runs.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// The limits of one trial (`budgets` in task.yaml). `None` means unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budgets {
    #[serde(default)]
    pub llm_calls: Option<u64>,
    /// Prompt plus completion tokens over all calls, as the provider reported them.
    #[serde(default)]
    pub tokens: Option<u64>,
}

/// Which limit refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetKind {
    LlmCalls,
    Tokens,
}

impl BudgetKind {
    /// `error.code` in the answer to the agent (nab-agent maps `token_budget` to
    /// ExitReason::TokenBudget and `llm_calls` to CallBudget).
    pub fn error_code(self) -> &'static str {
        match self {
            BudgetKind::LlmCalls => "llm_calls",
            BudgetKind::Tokens => "token_budget",
        }
    }

    /// `budget_exceeded` in the transcript line (`llm_calls` or `tokens`).
    pub fn transcript_name(self) -> &'static str {
        match self {
            BudgetKind::LlmCalls => "llm_calls",
            BudgetKind::Tokens => "tokens",
        }
    }
}

/// A call refused because a limit was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: BudgetKind,
    pub limit: u64,
    pub used: u64,
    /// The request's `max_tokens` when it is what could not be covered (tokens left, but
    /// fewer than the call may use).
    pub asked: Option<u64>,
}

impl Refusal {
    pub fn message(&self) -> String {
        match (self.kind, self.asked) {
            (BudgetKind::LlmCalls, _) => format!(
                "model call budget exceeded: the trial's limit is {} model calls (llm_calls) and {} were made",
                self.limit, self.used
            ),
            (BudgetKind::Tokens, None) => format!(
                "token budget exceeded: the trial's limit is {} tokens and {} were used",
                self.limit, self.used
            ),
            (BudgetKind::Tokens, Some(asked)) => format!(
                "token budget cannot cover this call: it asks for max_tokens {asked} but only {} of the trial's {} tokens are left ({} used); ask for fewer",
                self.limit.saturating_sub(self.used),
                self.limit,
                self.used
            ),
        }
    }

    /// The OpenAI-style error body sent to the agent.
    pub fn error_body(&self) -> Value {
        json!({"error": {
            "type": "budget_exceeded",
            "code": self.kind.error_code(),
            "message": self.message(),
            "param": self.asked.map(|_| "max_tokens"),
        }})
    }
}

/// What a call may use, as far as the gateway can tell before sending it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenAsk {
    /// The request's `max_tokens` (or `max_completion_tokens`, the smaller of the two).
    pub max_tokens: Option<u64>,
    /// The prompt's size in tokens, estimated from its bytes (about four per token).
    pub prompt_estimate: u64,
}

/// What a trial has used so far, and what the calls in flight have reserved.
#[derive(Debug, Default)]
struct Usage {
    limits: Budgets,
    calls: u64,
    tokens: u64,
    reserved: u64,
}

/// What the trial may still use, before the next call is sent.
enum Decision {
    Admit(u64),
    Refuse(Refusal),
    /// It may fit once the calls in flight have reported what they really used.
    Wait,
}

impl Usage {
    fn decide(&self, ask: TokenAsk) -> Decision {
        if let Some(limit) = self.limits.llm_calls
            && self.calls >= limit
        {
            return Decision::Refuse(Refusal {
                kind: BudgetKind::LlmCalls,
                limit,
                used: self.calls,
                asked: None,
            });
        }
        let Some(limit) = self.limits.tokens else {
            return Decision::Admit(0);
        };
        let refuse = |asked| {
            Decision::Refuse(Refusal {
                kind: BudgetKind::Tokens,
                limit,
                used: self.tokens,
                asked,
            })
        };
        if self.tokens >= limit {
            return refuse(None);
        }
        let left = limit - self.tokens;
        if let Some(m) = ask.max_tokens
            && m > left
        {
            return refuse(Some(m));
        }
        // A call without max_tokens may use everything that is left: it runs alone.
        let need = match ask.max_tokens {
            Some(m) => m.saturating_add(ask.prompt_estimate).min(left),
            None => left,
        };
        if self.reserved > 0 && self.reserved.saturating_add(need) > left {
            return Decision::Wait;
        }
        Decision::Admit(need)
    }
}

/// One trial's budgets, shared by its concurrent calls. A call takes a [`Reservation`] of
/// the tokens it may use before it is sent, so calls in flight together can never be
/// admitted past the limit; only a call's prompt beyond its estimate can cross it.
#[derive(Debug, Default)]
pub struct Budget {
    usage: Mutex<Usage>,
    settled: Notify,
}

impl Budget {
    pub fn new(limits: Budgets) -> Arc<Budget> {
        Arc::new(Budget {
            usage: Mutex::new(Usage {
                limits,
                ..Usage::default()
            }),
            settled: Notify::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Usage> {
        self.usage.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admits a call (counting it against `llm_calls` and reserving its tokens), refuses
    /// it, or waits until the calls in flight have settled enough for it to fit. A call
    /// is refused only for what no waiting can change: a limit reached, or a `max_tokens`
    /// larger than what is left.
    pub async fn admit(self: &Arc<Self>, ask: TokenAsk) -> Result<Reservation, Refusal> {
        loop {
            let settled = self.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            {
                let mut usage = self.lock();
                match usage.decide(ask) {
                    Decision::Admit(tokens) => {
                        usage.calls += 1;
                        usage.reserved += tokens;
                        return Ok(Reservation {
                            budget: self.clone(),
                            tokens,
                        });
                    }
                    Decision::Refuse(r) => return Err(r),
                    Decision::Wait => {}
                }
            }
            settled.await;
        }
    }

    /// Tokens reported by calls that have ended.
    #[cfg(test)]
    pub fn used_tokens(&self) -> u64 {
        self.lock().tokens
    }
}

/// Tokens held for a call in flight; given back when it settles or is dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<Budget>,
    tokens: u64,
}

impl Reservation {
    /// The call ended having used `tokens` (prompt plus completion, as reported).
    pub fn settle(self, tokens: u64) {
        self.budget.lock().tokens += tokens;
        // Drop releases the reservation and wakes the calls waiting for it.
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.lock().reserved -= self.tokens;
        self.budget.settled.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(max_tokens: Option<u64>, prompt_estimate: u64) -> TokenAsk {
        TokenAsk {
            max_tokens,
            prompt_estimate,
        }
    }

    #[tokio::test]
    async fn refuses_past_each_limit_with_its_code() {
        let b = Budget::new(Budgets {
            llm_calls: Some(2),
            tokens: None,
        });
        b.admit(ask(None, 0)).await.unwrap().settle(5);
        b.admit(ask(None, 0)).await.unwrap().settle(5);
        let r = b.admit(ask(None, 0)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "llm_calls");
        assert!(r.message().contains("limit is 2"));

        let b = Budget::new(Budgets {
            llm_calls: None,
            tokens: Some(100),
        });
        b.admit(ask(None, 0)).await.unwrap().settle(100);
        let r = b.admit(ask(None, 0)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "token_budget");
        assert_eq!(r.kind.transcript_name(), "tokens");
    }

    #[tokio::test]
    async fn a_max_tokens_larger_than_what_is_left_is_refused_naming_it() {
        let b = Budget::new(Budgets {
            llm_calls: None,
            tokens: Some(100),
        });
        b.admit(ask(None, 0)).await.unwrap().settle(40);
        let r = b.admit(ask(Some(61), 0)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["param"], "max_tokens");
        assert!(r.message().contains("max_tokens 61") && r.message().contains("only 60"));
        assert!(b.admit(ask(Some(60), 0)).await.is_ok());
    }

    #[tokio::test]
    async fn calls_in_flight_hold_their_reservation_and_later_calls_wait_for_it() {
        let b = Budget::new(Budgets {
            llm_calls: None,
            tokens: Some(100),
        });
        let first = b.admit(ask(Some(50), 10)).await.unwrap();
        // 60 reserved of 100: a second call of 50 + 10 must wait for the first to settle.
        let b2 = b.clone();
        let second = tokio::spawn(async move { b2.admit(ask(Some(50), 10)).await });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!second.is_finished(), "admitted past the budget");
        first.settle(30);
        let second = second.await.unwrap().unwrap();
        drop(second);
        assert_eq!(b.used_tokens(), 30);
        // Dropped without settling (the agent went away): the reservation is given back.
        let none = b.admit(ask(None, 0)).await.unwrap();
        drop(none);
        assert!(b.admit(ask(Some(70), 0)).await.is_ok());
    }
}
