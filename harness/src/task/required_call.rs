//! `required_tool_calls:` in task.yaml: MCP tool calls the task's servers must have served,
//! checked in the MCP host's record (`mcp_calls.jsonl`, see `crate::trial::requirements`) for
//! every agent. A bare name is met by any one call of that tool; the long form also pins
//! arguments and a count, so "call it once with anything" no longer passes:
//!
//! ```yaml
//! required_tool_calls:
//!   - mcp__tracker__list_tickets                                  # at least one call
//!   - {tool: mcp__tracker__get_ticket, arguments: {id: TCK-212}}  # this ticket
//!   - {tool: mcp__inventory__get_counts, arguments: {page: 3}}    # this page
//!   - {tool: mcp__inventory__get_sku, at_least: 4}                # four lookups
//! ```
//!
//! `arguments` is a subset match: every key given must be in the call with an equal value
//! (numbers compare by value, so `3` matches `3.0`); other keys may be anything.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "RawRequiredCall", into = "RawRequiredCall")]
pub struct RequiredCall {
    /// The tool's name as the model calls it (`mcp__<server>__<tool>` for MCP tools).
    pub tool: String,
    /// Arguments every counted call must have (a subset match); empty: any call counts.
    pub arguments: Map<String, Value>,
    /// Calls that must match (default 1).
    pub at_least: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum RawRequiredCall {
    Name(String),
    Full(FullForm),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FullForm {
    tool: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    arguments: Map<String, Value>,
    #[serde(default = "one")]
    at_least: u32,
}

fn one() -> u32 {
    1
}

impl From<RawRequiredCall> for RequiredCall {
    fn from(raw: RawRequiredCall) -> Self {
        match raw {
            RawRequiredCall::Name(tool) => RequiredCall {
                tool,
                arguments: Map::new(),
                at_least: 1,
            },
            RawRequiredCall::Full(f) => RequiredCall {
                tool: f.tool,
                arguments: f.arguments,
                at_least: f.at_least,
            },
        }
    }
}

impl From<RequiredCall> for RawRequiredCall {
    fn from(r: RequiredCall) -> Self {
        if r.arguments.is_empty() && r.at_least == 1 {
            RawRequiredCall::Name(r.tool)
        } else {
            RawRequiredCall::Full(FullForm {
                tool: r.tool,
                arguments: r.arguments,
                at_least: r.at_least,
            })
        }
    }
}

/// One tool call a server served: its agent-side name and its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct MadeCall<'a> {
    pub tool: &'a str,
    pub arguments: Value,
}

impl RequiredCall {
    /// How many of `made` this requirement counts.
    pub fn matches(&self, made: &[MadeCall<'_>]) -> u32 {
        let n = made
            .iter()
            .filter(|c| c.tool == self.tool && self.arguments_match(&c.arguments))
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// `None` when `made` meets the requirement; otherwise what is missing, for the
    /// trial's violations.
    pub fn unmet(&self, made: &[MadeCall<'_>]) -> Option<String> {
        let n = self.matches(made);
        (n < self.at_least).then(|| {
            let times = |k: u32| {
                if k == 1 {
                    "once".to_owned()
                } else {
                    format!("{k} times")
                }
            };
            format!(
                "required tool call {self} served {} (needs at least {})",
                if n == 0 { "never".to_owned() } else { times(n) },
                times(self.at_least)
            )
        })
    }

    fn arguments_match(&self, args: &Value) -> bool {
        self.arguments
            .iter()
            .all(|(k, want)| args.get(k).is_some_and(|have| json_equal(have, want)))
    }
}

/// JSON equality with numbers compared by value (a model may send `3.0` for `3`).
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

impl fmt::Display for RequiredCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.tool)?;
        if !self.arguments.is_empty() {
            write!(f, " with {}", Value::Object(self.arguments.clone()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(yaml: &str) -> Vec<RequiredCall> {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn call(tool: &str, arguments: Value) -> MadeCall<'_> {
        MadeCall { tool, arguments }
    }

    #[test]
    fn a_bare_name_is_met_by_any_one_call() {
        let r = &parse("[mcp__t__get_ticket]")[0];
        assert_eq!(r.at_least, 1);
        assert!(
            r.unmet(&[call("mcp__t__get_ticket", json!({"id": "X"}))])
                .is_none()
        );
        let why = r.unmet(&[call("mcp__t__list", json!({}))]).unwrap();
        assert_eq!(
            why,
            "required tool call `mcp__t__get_ticket` served never (needs at least once)"
        );
    }

    #[test]
    fn arguments_must_match_as_a_subset_and_numbers_by_value() {
        let r = &parse("[{tool: get_counts, arguments: {page: 3, warehouse: BER-1}}]")[0];
        let right = call(
            "get_counts",
            json!({"page": 3.0, "warehouse": "BER-1", "size": 20}),
        );
        assert!(r.unmet(std::slice::from_ref(&right)).is_none());
        for wrong in [
            json!({"page": 2, "warehouse": "BER-1"}),
            json!({"page": 3}),
            json!({"page": "3", "warehouse": "BER-1"}),
            Value::Null,
        ] {
            let why = r.unmet(&[call("get_counts", wrong.clone())]);
            assert!(why.is_some(), "{wrong} must not count");
        }
        // Another tool with the same arguments is not the required call.
        assert!(
            r.unmet(&[call("get_sku", right.arguments.clone())])
                .is_some()
        );
    }

    #[test]
    fn a_count_needs_that_many_matching_calls() {
        let r = &parse("[{tool: get_sku, at_least: 3}]")[0];
        let two = [
            call("get_sku", json!({"sku": "A"})),
            call("get_sku", json!({"sku": "B"})),
        ];
        assert_eq!(
            r.unmet(&two).unwrap(),
            "required tool call `get_sku` served 2 times (needs at least 3 times)"
        );
        let mut three = two.to_vec();
        three.push(call("get_sku", json!({"sku": "C"})));
        assert!(r.unmet(&three).is_none());
    }

    #[test]
    fn both_forms_round_trip_and_unknown_keys_are_refused() {
        let rs = parse("[a, {tool: b, arguments: {x: [1, {y: z}]}, at_least: 2}]");
        let back: Vec<RequiredCall> =
            serde_yaml::from_str(&serde_yaml::to_string(&rs).unwrap()).unwrap();
        assert_eq!(rs, back);
        assert_eq!(rs[1].to_string(), r#"`b` with {"x":[1,{"y":"z"}]}"#);
        assert!(serde_yaml::from_str::<Vec<RequiredCall>>("[{tool: b, args: {}}]").is_err());
    }
}
