//! Per-trial limits on model calls, tokens and dollars, checked before each call is
//! forwarded, with the tokens a call may use reserved while it runs.
//!
//! The dollar limit (`usd`) prices each call's reported usage at the run's rate
//! ([`crate::Rate`]): no call starts once the trial's spend has reached the limit, or when
//! its prompt alone (estimated from its size) would cross it. Calls already running are not
//! cut off, so the spend can end a little past the limit; it is never crossed by a call
//! that starts after.

use crate::pricing::Rate;
use nab_protocol::Usage as TokenUsage;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// The limits of one trial (`budgets` in task.yaml, read with this type: an unknown field
/// is an error). `None` means unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budgets {
    /// Model calls over the trial.
    #[serde(default)]
    pub llm_calls: Option<u64>,
    /// Prompt plus completion tokens over all calls, as the provider reported them.
    #[serde(default)]
    pub tokens: Option<u64>,
    /// US dollars over all calls, their reported usage priced at the gateway's rate
    /// ([`crate::GatewayConfig::price`]); not enforced without a rate.
    #[serde(default)]
    pub usd: Option<f64>,
}

/// Which limit refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetKind {
    LlmCalls,
    Tokens,
    Usd,
}

impl BudgetKind {
    /// `error.code` in the answer to the agent (nab-agent maps `token_budget` to
    /// ExitReason::TokenBudget and `llm_calls` to CallBudget).
    pub fn error_code(self) -> &'static str {
        match self {
            BudgetKind::LlmCalls => "llm_calls",
            BudgetKind::Tokens => "token_budget",
            BudgetKind::Usd => "cost_budget",
        }
    }

    /// `budget_exceeded` in the transcript line (`llm_calls`, `tokens` or `usd`).
    pub fn transcript_name(self) -> &'static str {
        match self {
            BudgetKind::LlmCalls => "llm_calls",
            BudgetKind::Tokens => "tokens",
            BudgetKind::Usd => "usd",
        }
    }
}

/// A call refused because a limit was reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub kind: BudgetKind,
    pub limit: u64,
    pub used: u64,
    /// The request's `max_tokens` when it is what could not be covered (tokens left, but
    /// fewer than the call may use).
    pub asked: Option<u64>,
    /// For [`BudgetKind::Usd`]: the limit, the spend so far, and the estimated cost of the
    /// call's prompt when it is what could not be covered.
    pub usd: Option<UsdRefusal>,
}

/// The numbers of a refusal by the dollar limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UsdRefusal {
    pub limit: f64,
    pub spent: f64,
    pub prompt_estimate: Option<f64>,
}

impl Refusal {
    pub fn message(&self) -> String {
        if let Some(u) = self.usd {
            return match u.prompt_estimate {
                None => format!(
                    "cost budget exceeded: the trial's limit is ${:.4} (budgets.usd) and ${:.4} was spent",
                    u.limit, u.spent
                ),
                Some(p) => format!(
                    "cost budget cannot cover this call: its prompt alone would cost about ${p:.4} but only ${:.4} of the trial's ${:.4} (budgets.usd) is left",
                    (u.limit - u.spent).max(0.0),
                    u.limit
                ),
            };
        }
        match (self.kind, self.asked) {
            (BudgetKind::LlmCalls, _) => format!(
                "model call budget exceeded: the trial's limit is {} model calls (llm_calls) and {} were made",
                self.limit, self.used
            ),
            (BudgetKind::Tokens, None) => format!(
                "token budget exceeded: the trial's limit is {} tokens and {} were used",
                self.limit, self.used
            ),
            (BudgetKind::Usd, _) => "cost budget exceeded (budgets.usd)".to_owned(),
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
    /// The rate the `usd` limit prices calls at.
    rate: Option<Rate>,
    calls: u64,
    tokens: u64,
    reserved: u64,
    /// Dollars spent by calls that have ended.
    spent_usd: f64,
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
                usd: None,
            });
        }
        if let (Some(limit), Some(rate)) = (self.limits.usd, self.rate) {
            let prompt = ask.prompt_estimate as f64 * rate.input / 1_000_000.0;
            let over_now = self.spent_usd >= limit;
            if over_now || self.spent_usd + prompt > limit {
                return Decision::Refuse(Refusal {
                    kind: BudgetKind::Usd,
                    limit: 0,
                    used: 0,
                    asked: None,
                    usd: Some(UsdRefusal {
                        limit,
                        spent: self.spent_usd,
                        prompt_estimate: (!over_now).then_some(prompt),
                    }),
                });
            }
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
                usd: None,
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
    /// `rate` prices calls for the `usd` limit (without one, that limit is not enforced:
    /// `nab run` refuses to start such a run).
    pub fn new(limits: Budgets, rate: Option<Rate>) -> Arc<Budget> {
        Arc::new(Budget {
            usage: Mutex::new(Usage {
                limits,
                rate,
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
    /// The call ended having used `usage` (as reported; `None`: nothing reported).
    pub fn settle(self, usage: Option<&TokenUsage>) {
        if let Some(u) = usage {
            let mut b = self.budget.lock();
            // Saturating: the usage is what the upstream claimed, absurd counts included.
            b.tokens = b.tokens.saturating_add(u.total());
            if let Some(rate) = b.rate {
                b.spent_usd = (b.spent_usd + rate.cost(u)).min(f64::MAX);
            }
        }
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

    /// Usage of `n` prompt tokens and nothing else.
    fn tokens(n: u64) -> TokenUsage {
        TokenUsage {
            prompt_tokens: n,
            ..TokenUsage::default()
        }
    }

    /// One call admitted with no token ask, then settled at `used` tokens.
    async fn spend(b: &Arc<Budget>, used: u64) {
        b.admit(ask(None, 0))
            .await
            .unwrap()
            .settle(Some(&tokens(used)));
    }

    fn ask(max_tokens: Option<u64>, prompt_estimate: u64) -> TokenAsk {
        TokenAsk {
            max_tokens,
            prompt_estimate,
        }
    }

    #[tokio::test]
    async fn refuses_past_each_limit_with_its_code() {
        let b = Budget::new(
            Budgets {
                llm_calls: Some(2),
                ..Budgets::default()
            },
            None,
        );
        spend(&b, 5).await;
        spend(&b, 5).await;
        let r = b.admit(ask(None, 0)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "llm_calls");
        assert!(r.message().contains("limit is 2"));

        let b = Budget::new(
            Budgets {
                tokens: Some(100),
                ..Budgets::default()
            },
            None,
        );
        spend(&b, 100).await;
        let r = b.admit(ask(None, 0)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "token_budget");
        assert_eq!(r.kind.transcript_name(), "tokens");
    }

    #[tokio::test]
    async fn a_max_tokens_larger_than_what_is_left_is_refused_naming_it() {
        let b = Budget::new(
            Budgets {
                tokens: Some(100),
                ..Budgets::default()
            },
            None,
        );
        spend(&b, 40).await;
        let r = b.admit(ask(Some(61), 0)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["param"], "max_tokens");
        assert!(r.message().contains("max_tokens 61") && r.message().contains("only 60"));
        assert!(b.admit(ask(Some(60), 0)).await.is_ok());
    }

    #[tokio::test]
    async fn calls_in_flight_hold_their_reservation_and_later_calls_wait_for_it() {
        let b = Budget::new(
            Budgets {
                tokens: Some(100),
                ..Budgets::default()
            },
            None,
        );
        let first = b.admit(ask(Some(50), 10)).await.unwrap();
        // 60 reserved of 100: a second call of 50 + 10 must wait for the first to settle.
        let b2 = b.clone();
        let second = tokio::spawn(async move { b2.admit(ask(Some(50), 10)).await });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!second.is_finished(), "admitted past the budget");
        first.settle(Some(&tokens(30)));
        let second = second.await.unwrap().unwrap();
        drop(second);
        assert_eq!(b.used_tokens(), 30);
        // Dropped without settling (the agent went away): the reservation is given back.
        let none = b.admit(ask(None, 0)).await.unwrap();
        drop(none);
        assert!(b.admit(ask(Some(70), 0)).await.is_ok());
    }

    #[tokio::test]
    async fn the_usd_limit_refuses_once_the_priced_spend_reaches_it_or_a_prompt_would_cross_it() {
        let rate = Rate {
            input: 100.0,
            cached_input: 10.0,
            cache_write: 100.0,
            output: 1000.0,
        };
        let b = Budget::new(
            Budgets {
                usd: Some(0.05),
                ..Budgets::default()
            },
            Some(rate),
        );
        // 80 prompt tokens (20 of them cached) + 20 out = 0.006 + 0.0002 + 0.02 = $0.0262.
        let call = TokenUsage {
            prompt_tokens: 80,
            completion_tokens: 20,
            cached_tokens: 20,
            cache_write_tokens: 0,
        };
        b.admit(ask(None, 10)).await.unwrap().settle(Some(&call));
        // $0.0262 spent: a prompt estimated at 300 tokens ($0.03) would cross $0.05.
        let r = b.admit(ask(None, 300)).await.unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "cost_budget");
        assert!(
            r.message()
                .contains("prompt alone would cost about $0.0300"),
            "{}",
            r.message()
        );
        b.admit(ask(None, 10)).await.unwrap().settle(Some(&call));
        let r = b.admit(ask(None, 0)).await.unwrap_err();
        assert_eq!((r.kind, r.kind.transcript_name()), (BudgetKind::Usd, "usd"));
        assert!(
            r.message()
                .contains("limit is $0.0500 (budgets.usd) and $0.0524 was spent"),
            "{}",
            r.message()
        );
        // Without a rate the limit cannot be priced, so it is not enforced.
        let b = Budget::new(
            Budgets {
                usd: Some(0.0),
                ..Budgets::default()
            },
            None,
        );
        assert!(b.admit(ask(None, 10)).await.is_ok());
    }
}
