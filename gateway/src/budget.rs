//! Per-trial limits on model calls and tokens, checked before each call is forwarded.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

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
}

impl Refusal {
    pub fn message(&self) -> String {
        match self.kind {
            BudgetKind::LlmCalls => format!(
                "model call budget exceeded: the trial's limit is {} model calls (llm_calls) and {} were made",
                self.limit, self.used
            ),
            BudgetKind::Tokens => format!(
                "token budget exceeded: the trial's limit is {} tokens and {} were used",
                self.limit, self.used
            ),
        }
    }

    /// The OpenAI-style error body sent to the agent.
    pub fn error_body(&self) -> Value {
        json!({"error": {
            "type": "budget_exceeded",
            "code": self.kind.error_code(),
            "message": self.message(),
            "param": null,
        }})
    }
}

/// What a trial has used so far.
#[derive(Debug, Default)]
pub struct BudgetState {
    limits: Budgets,
    calls: u64,
    tokens: u64,
}

impl BudgetState {
    pub fn new(limits: Budgets) -> BudgetState {
        BudgetState {
            limits,
            ..BudgetState::default()
        }
    }

    /// Counts a call if both limits allow it. A call is admitted while fewer than
    /// `llm_calls` were made and fewer than `tokens` tokens were used.
    pub fn admit(&mut self) -> Result<(), Refusal> {
        if let Some(limit) = self.limits.llm_calls
            && self.calls >= limit
        {
            return Err(Refusal {
                kind: BudgetKind::LlmCalls,
                limit,
                used: self.calls,
            });
        }
        if let Some(limit) = self.limits.tokens
            && self.tokens >= limit
        {
            return Err(Refusal {
                kind: BudgetKind::Tokens,
                limit,
                used: self.tokens,
            });
        }
        self.calls += 1;
        Ok(())
    }

    pub fn add_tokens(&mut self, n: u64) {
        self.tokens += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_each_limit_with_its_code() {
        let mut b = BudgetState::new(Budgets {
            llm_calls: Some(2),
            tokens: None,
        });
        assert!(b.admit().is_ok() && b.admit().is_ok());
        let r = b.admit().unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "llm_calls");
        assert!(r.message().contains("limit is 2"));

        let mut b = BudgetState::new(Budgets {
            llm_calls: None,
            tokens: Some(100),
        });
        assert!(b.admit().is_ok());
        b.add_tokens(100);
        let r = b.admit().unwrap_err();
        assert_eq!(r.error_body()["error"]["code"], "token_budget");
        assert_eq!(r.kind.transcript_name(), "tokens");
    }
}
