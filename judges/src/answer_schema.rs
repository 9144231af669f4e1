//! JSON Schemas of the two answers a judge gives, for providers that can constrain a model's
//! output to a schema (OpenAI structured outputs, llama.cpp and llama-cpp-python grammars).
//!
//! A schema only shapes what the model writes; every answer is still checked by the strict
//! parser ([`crate::parse`]), which stays the authority. So each schema must accept nothing
//! the parser would refuse for its shape, and the tests below tie the two together.

use crate::parse::MAX_EVIDENCE_CHARS;
use crate::rubric::Rubric;
use serde_json::{Value, json};

/// Evidence written under a schema is held shorter than the parser allows: a small model
/// decoding greedily can repeat itself inside a string until its token cap, and a cut-off
/// answer is no answer. 300 characters is a sentence or two of reasons.
pub const SCHEMA_EVIDENCE_CHARS: usize = 300;
const _: () = assert!(SCHEMA_EVIDENCE_CHARS <= MAX_EVIDENCE_CHARS);

fn evidence() -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": SCHEMA_EVIDENCE_CHARS})
}

/// `{"winner": "A"|"B"|"tie", "evidence": "…"}`, winner first so a cut answer still names it.
pub fn pairwise_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "winner": {"type": "string", "enum": ["A", "B", "tie"]},
            "evidence": evidence(),
        },
        "required": ["winner", "evidence"],
        "additionalProperties": false,
    })
}

/// `{"scores": [...], "vetoes": [...]}` for `rubric`: one score object per dimension and one
/// verdict per veto, in the rubric's order, ids fixed by the schema.
pub fn single_schema(rubric: &Rubric) -> Value {
    let scores: Vec<Value> = rubric
        .dimensions
        .iter()
        .map(|d| {
            json!({
                "type": "object",
                "properties": {
                    "dimension": {"type": "string", "enum": [d.id]},
                    "score": {"type": "integer", "minimum": 1, "maximum": 5},
                    "evidence": evidence(),
                },
                "required": ["dimension", "score", "evidence"],
                "additionalProperties": false,
            })
        })
        .collect();
    let vetoes: Vec<Value> = rubric
        .vetoes
        .iter()
        .map(|v| {
            json!({
                "type": "object",
                "properties": {
                    "id": {"type": "string", "enum": [v.id]},
                    "violated": {"type": "boolean"},
                    "evidence": evidence(),
                },
                "required": ["id", "violated", "evidence"],
                "additionalProperties": false,
            })
        })
        .collect();
    json!({
        "type": "object",
        "properties": {
            "scores": fixed_array(scores),
            "vetoes": fixed_array(vetoes),
        },
        "required": ["scores", "vetoes"],
        "additionalProperties": false,
    })
}

/// An array with exactly these items, in this order.
fn fixed_array(items: Vec<Value>) -> Value {
    let n = items.len();
    json!({"type": "array", "prefixItems": items, "items": false, "minItems": n, "maxItems": n})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_pairwise, parse_single};

    /// Every answer that follows the schema's shape parses (the schema never steers a model
    /// into a rejection), and what the schema's enums leave out is what the parser refuses.
    #[test]
    fn pairwise_schema_matches_the_parser() {
        let s = pairwise_schema();
        let winners: Vec<&str> = s["properties"]["winner"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        for w in &winners {
            let longest = "x".repeat(SCHEMA_EVIDENCE_CHARS);
            let raw = json!({"winner": w, "evidence": longest}).to_string();
            parse_pairwise(&raw).unwrap_or_else(|e| panic!("{w}: {e}"));
        }
        assert_eq!(winners, ["A", "B", "tie"]);
        assert!(parse_pairwise(r#"{"winner":"a","evidence":"x"}"#).is_err());
        let required: Vec<&str> = s["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(required, ["winner", "evidence"]);
        assert_eq!(s["additionalProperties"], false);
        // The parser refuses an extra field, as the schema does.
        assert!(parse_pairwise(r#"{"winner":"A","evidence":"x","confidence":1}"#).is_err());
    }

    #[test]
    fn single_schema_matches_the_parser_for_the_default_rubric() {
        let rubric = Rubric::default_code_quality();
        let s = single_schema(&rubric);
        let scores = s["properties"]["scores"]["prefixItems"].as_array().unwrap();
        let vetoes = s["properties"]["vetoes"]["prefixItems"].as_array().unwrap();
        assert_eq!(scores.len(), rubric.dimensions.len());
        assert_eq!(vetoes.len(), rubric.vetoes.len());
        // The answer the schema describes, built from the schema itself, at both score ends.
        for score in [1, 5] {
            let answer = json!({
                "scores": scores.iter().map(|d| json!({
                    "dimension": d["properties"]["dimension"]["enum"][0],
                    "score": score,
                    "evidence": "e",
                })).collect::<Vec<_>>(),
                "vetoes": vetoes.iter().map(|v| json!({
                    "id": v["properties"]["id"]["enum"][0],
                    "violated": false,
                    "evidence": "e",
                })).collect::<Vec<_>>(),
            });
            let parsed = parse_single(&answer.to_string(), &rubric)
                .unwrap_or_else(|e| panic!("score {score}: {e}"));
            assert_eq!(parsed.scores.len(), rubric.dimensions.len());
        }
        assert_eq!(
            scores[0]["properties"]["score"],
            json!({"type": "integer", "minimum": 1, "maximum": 5})
        );
    }
}
