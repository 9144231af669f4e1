//! A run's prices (`--prices`): the rate the run's model gets, checked and announced once
//! before any trial starts, and what a trial's gateway usage costs at it.
//!
//! The model is matched by the name the gateway uses upstream ([`ModelSetup::agent_model`]:
//! the inner model of `openai:`/`anthropic:`, `scripted` for the scripted model, the
//! recorded model for `replay:`). A model no entry matches has no cost, never a cost of 0.
//!
//! What needs a price refuses to start without one ([`require_price`]): a task's
//! `budgets.usd` and `--max-cost-usd` would otherwise be limits nobody counts.

use crate::task::Task;
use crate::trial::model::ModelSetup;
use nab_gateway::{ModelPrice, Prices};
use nab_protocol::Usage;
use std::path::{Path, PathBuf};

/// What `--prices` did for the run's model, for the one line the run prints about it.
#[derive(Debug, Clone, PartialEq)]
pub enum Pricing {
    /// No `--prices` given: records have no cost.
    None,
    /// The agent talks to no model: there is nothing to price.
    NoModel,
    Matched(ModelPrice),
    /// No entry matches the model: records have no cost.
    Unmatched {
        model: String,
        file: String,
    },
}

impl Pricing {
    /// Finds the rate of the run's model (`model`: `None` for agents without a model).
    pub fn resolve(prices: Option<&Prices>, model: Option<&ModelSetup>) -> Pricing {
        match (prices, model) {
            (None, _) => Pricing::None,
            (Some(_), None) => Pricing::NoModel,
            (Some(p), Some(m)) => match p.find(&m.agent_model) {
                Some(price) => Pricing::Matched(price),
                None => Pricing::Unmatched {
                    model: m.agent_model.clone(),
                    file: p.file().display().to_string(),
                },
            },
        }
    }

    pub fn price(&self) -> Option<&ModelPrice> {
        match self {
            Pricing::Matched(p) => Some(p),
            _ => None,
        }
    }

    /// The line the run prints about its prices (`None`: nothing to say).
    pub fn note(&self) -> Option<String> {
        match self {
            Pricing::None => None,
            Pricing::NoModel => {
                Some("note: --prices has no effect: this agent talks to no model".into())
            }
            Pricing::Matched(p) => Some(format!(
                "prices: model `{}` priced by entry {} (`{}`): USD {} / {} / {} / {} per million input / cached-input (cache read) / cache-write / output tokens",
                p.model,
                p.entry,
                p.pattern,
                p.rate.input,
                p.rate.cached_input,
                p.rate.cache_write,
                p.rate.output
            )),
            Pricing::Unmatched { model, file } => Some(format!(
                "warning: prices file {file}: no entry matches model `{model}`; the run's trial records will have no cost_usd"
            )),
        }
    }
}

/// A dollar limit the run was given but could not count, found before anything runs.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PriceRequired {
    #[error(
        "task {task} has budgets.usd, but model `{model}` has no price{}: pass --prices FILE with an entry matching it, or run without that task",
        in_file(.file)
    )]
    UsdBudget {
        task: String,
        model: String,
        file: Option<PathBuf>,
    },
    #[error(
        "--max-cost-usd {limit}: model `{model}` has no price{}, so what its trials spend cannot be counted: pass --prices FILE with an entry matching it, or leave out --max-cost-usd",
        in_file(.file)
    )]
    MaxCost {
        limit: f64,
        model: String,
        file: Option<PathBuf>,
    },
}

fn in_file(file: &Option<PathBuf>) -> String {
    match file {
        Some(f) => format!(" in {}", f.display()),
        None => " (no --prices given)".to_owned(),
    }
}

/// Refuses, before anything runs, a dollar limit the gateway could not count: a task with
/// `budgets.usd`, or `max_cost_usd` (`--max-cost-usd`), when the model (`None`: the agent
/// talks to no model and spends nothing) has no price. `prices_file` is named in the error.
/// `nab run` and `nab sweep` (for each of its models) both call it.
pub fn require_price(
    pricing: &Pricing,
    model: Option<&ModelSetup>,
    tasks: &[std::sync::Arc<Task>],
    max_cost_usd: Option<f64>,
    prices_file: Option<&Path>,
) -> Result<(), PriceRequired> {
    let Some(m) = model else {
        return Ok(());
    };
    if pricing.price().is_some() {
        return Ok(());
    }
    let file = prices_file.map(Path::to_path_buf);
    if let Some(limit) = max_cost_usd {
        return Err(PriceRequired::MaxCost {
            limit,
            model: m.agent_model.clone(),
            file,
        });
    }
    match tasks
        .iter()
        .find(|t| t.spec.budgets.as_ref().is_some_and(|b| b.usd.is_some()))
    {
        Some(t) => Err(PriceRequired::UsdBudget {
            task: t.id().to_owned(),
            model: m.agent_model.clone(),
            file,
        }),
        None => Ok(()),
    }
}

/// A trial's cost at `price` from the gateway's token counts (`None` without a price).
pub fn trial_cost(price: Option<&ModelPrice>, usage: &Usage) -> Option<f64> {
    price.map(|p| p.rate.cost(usage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn prices() -> Prices {
        Prices::parse(
            "prices:\n  - {model: 'example-*', input: 2, cached_input: 0.5, output: 8}\n",
            Path::new("p.yaml"),
        )
        .unwrap()
    }

    fn setup(agent_model: &str) -> ModelSetup {
        ModelSetup {
            spec: format!("openai:{agent_model}@http://h/v1"),
            agent_model: agent_model.into(),
            api_key_env: None,
            nab_agent: None,
            relay: None,
            pace: None,
            max_retries: None,
            price: None,
            trial_cassettes: None,
        }
    }

    #[test]
    fn the_model_is_matched_by_its_upstream_name_and_a_miss_says_so() {
        let p = prices();
        let m = Pricing::resolve(Some(&p), Some(&setup("example-chat")));
        assert_eq!(m.price().map(|p| p.entry), Some(1));
        assert!(m.note().unwrap().contains("entry 1"));
        let miss = Pricing::resolve(Some(&p), Some(&setup("scripted")));
        assert!(miss.price().is_none());
        let note = miss.note().unwrap();
        assert!(
            note.contains("no entry matches model `scripted`") && note.contains("p.yaml"),
            "{note}"
        );
        assert_eq!(Pricing::resolve(None, Some(&setup("x"))), Pricing::None);
        assert!(Pricing::resolve(None, None).note().is_none());
        assert_eq!(Pricing::resolve(Some(&p), None), Pricing::NoModel);
    }

    #[test]
    fn a_trial_costs_its_gateway_usage_at_the_rate_and_nothing_without_one() {
        let p = prices();
        let price = p.find("example-chat");
        let u = Usage {
            prompt_tokens: 3_000,
            completion_tokens: 500,
            cached_tokens: 1_000,
            cache_write_tokens: 0,
        };
        // 2000 × 2 + 1000 × 0.5 + 500 × 8 = 8500 micro-dollars.
        let c = trial_cost(price.as_ref(), &u).unwrap();
        assert!((c - 0.0085).abs() < 1e-12, "{c}");
        assert_eq!(trial_cost(None, &u), None);
    }
}
