//! Rubrics: YAML data, validated on load.
//!
//! ```yaml
//! id: code-quality
//! description: …
//! dimensions:
//!   - {id: readability, weight: 2, description: …, anchors: {1: …, 3: …, 5: …}}
//! vetoes:
//!   - {id: tests_tampered, description: …}
//! gates: {min_weighted_score: 3.0, min_dimension: {error_handling: 2}}
//! ```
//!
//! Weights are normalised to sum to 1. The rubric's hash is taken over its canonical JSON
//! form, so reformatting or comments do not change it but any change to what the judge is
//! shown or how scores are computed does.

use crate::error::JudgeError;
use crate::hash::sha256_tagged;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The rubric shipped with the crate (`rubrics/code-quality.yaml`).
pub const DEFAULT_RUBRIC_YAML: &str = include_str!("../rubrics/code-quality.yaml");
pub const DEFAULT_RUBRIC_NAME: &str = "rubrics/code-quality.yaml";

/// Longest text accepted in a description or anchor; judge prompts must stay small.
const MAX_TEXT: usize = 2_000;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RubricFile {
    id: String,
    #[serde(default)]
    description: String,
    dimensions: Vec<DimensionFile>,
    #[serde(default)]
    vetoes: Vec<Veto>,
    #[serde(default)]
    gates: Gates,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct DimensionFile {
    id: String,
    weight: f64,
    description: String,
    anchors: BTreeMap<u8, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Dimension {
    pub id: String,
    /// Normalised: the weights of a rubric sum to 1.
    pub weight: f64,
    pub description: String,
    /// Level (1–5) → what that level looks like. Always has 1, 3 and 5.
    pub anchors: BTreeMap<u8, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Veto {
    pub id: String,
    pub description: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gates {
    /// The weighted score (1–5) must reach this.
    #[serde(default)]
    pub min_weighted_score: Option<f64>,
    /// Named dimensions must each reach their score.
    #[serde(default)]
    pub min_dimension: BTreeMap<String, u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rubric {
    pub id: String,
    pub description: String,
    pub dimensions: Vec<Dimension>,
    pub vetoes: Vec<Veto>,
    pub gates: Gates,
    /// `sha256:<hex>` of the canonical JSON of everything above.
    #[serde(skip)]
    pub hash: String,
}

impl Rubric {
    pub fn load(path: &Path) -> Result<Rubric, JudgeError> {
        let text = std::fs::read_to_string(path).map_err(|source| JudgeError::Io {
            path: path.to_owned(),
            source,
        })?;
        Rubric::from_yaml(&text, path)
    }

    /// The shipped code-quality rubric.
    pub fn default_code_quality() -> Rubric {
        // The shipped file is covered by a test; failing here would be a build defect.
        Rubric::from_yaml(DEFAULT_RUBRIC_YAML, Path::new(DEFAULT_RUBRIC_NAME))
            .unwrap_or_else(|e| panic!("shipped rubric is invalid: {e}"))
    }

    /// Parses and validates `text`; `path` only names the source in errors.
    pub fn from_yaml(text: &str, path: &Path) -> Result<Rubric, JudgeError> {
        let fail = |problems: Vec<String>| JudgeError::Rubric {
            path: path.to_owned(),
            problems,
        };
        let de = serde_yaml::Deserializer::from_str(text);
        let file: RubricFile = serde_path_to_error::deserialize(de).map_err(|e| {
            let at = e.path().to_string();
            let inner = e.into_inner();
            let where_ = if at == "." { String::new() } else { format!("field `{at}`: ") };
            fail(vec![format!(
                "{where_}{inner} (allowed top-level fields: id, description, dimensions, vetoes, gates; \
                 dimension fields: id, weight, description, anchors; veto fields: id, description; \
                 gate fields: min_weighted_score, min_dimension)"
            )])
        })?;
        let problems = validate(&file);
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        let total: f64 = file.dimensions.iter().map(|d| d.weight).sum();
        let dimensions = file
            .dimensions
            .into_iter()
            .map(|d| Dimension {
                id: d.id,
                weight: d.weight / total,
                description: d.description.trim().to_owned(),
                anchors: d
                    .anchors
                    .into_iter()
                    .map(|(k, v)| (k, v.trim().to_owned()))
                    .collect(),
            })
            .collect();
        let mut rubric = Rubric {
            id: file.id,
            description: file.description.trim().to_owned(),
            dimensions,
            vetoes: file.vetoes,
            gates: file.gates,
            hash: String::new(),
        };
        let canonical = serde_json::to_vec(&rubric)
            .map_err(|e| fail(vec![format!("cannot serialise: {e}")]))?;
        rubric.hash = sha256_tagged(&canonical);
        Ok(rubric)
    }

    pub fn dimension(&self, id: &str) -> Option<&Dimension> {
        self.dimensions.iter().find(|d| d.id == id)
    }
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// What an id may be, as the problems say.
const SLUG_RULE: &str = "lower-case letters, digits, `_` or `-`, at most 64 characters";

/// Every problem of `file`, in field order; empty when it is a valid rubric.
fn validate(file: &RubricFile) -> Vec<String> {
    let mut p = Vec::new();
    if !is_slug(&file.id) {
        p.push(format!(
            "field `id`: {:?} is not allowed; use {SLUG_RULE}",
            file.id
        ));
    }
    if file.dimensions.is_empty() {
        p.push("field `dimensions`: at least one dimension is required".into());
    }
    // Dimensions and vetoes share one id space.
    let mut seen = BTreeSet::new();
    for (i, d) in file.dimensions.iter().enumerate() {
        validate_dimension(&mut p, &mut seen, i, d);
    }
    for (i, v) in file.vetoes.iter().enumerate() {
        let at = format!("field `vetoes[{i}]` ({})", v.id);
        check_id(&mut p, &mut seen, &at, &v.id);
        check_text(&mut p, &format!("{at}.description"), &v.description);
    }
    validate_gates(&mut p, file);
    p
}

/// An id must be a slug, and unique across dimensions and vetoes (`seen`).
fn check_id(p: &mut Vec<String>, seen: &mut BTreeSet<String>, at: &str, id: &str) {
    if !is_slug(id) {
        p.push(format!("{at}.id: {id:?} is not allowed; use {SLUG_RULE}"));
    }
    if !seen.insert(id.to_owned()) {
        p.push(format!(
            "{at}.id: `{id}` is used twice; ids must be unique across dimensions and vetoes"
        ));
    }
}

fn validate_dimension(
    p: &mut Vec<String>,
    seen: &mut BTreeSet<String>,
    i: usize,
    d: &DimensionFile,
) {
    let at = format!("field `dimensions[{i}]` ({})", d.id);
    check_id(p, seen, &at, &d.id);
    if !(d.weight.is_finite() && d.weight > 0.0) {
        p.push(format!(
            "{at}.weight: {} is not allowed; use a positive number (weights are normalised)",
            d.weight
        ));
    }
    check_text(p, &format!("{at}.description"), &d.description);
    for level in d.anchors.keys() {
        if !(1..=5).contains(level) {
            p.push(format!(
                "{at}.anchors: level {level} is not allowed; levels are 1 to 5"
            ));
        }
    }
    for need in [1u8, 3, 5] {
        if !d.anchors.contains_key(&need) {
            p.push(format!(
                "{at}.anchors: level {need} is missing; anchors for 1, 3 and 5 are required"
            ));
        }
    }
    for (level, text) in &d.anchors {
        check_text(p, &format!("{at}.anchors.{level}"), text);
    }
}

fn validate_gates(p: &mut Vec<String>, file: &RubricFile) {
    if let Some(min) = file.gates.min_weighted_score
        && !(min.is_finite() && (1.0..=5.0).contains(&min))
    {
        p.push(format!(
            "field `gates.min_weighted_score`: {min} is not allowed; use a number from 1 to 5"
        ));
    }
    for (dim, min) in &file.gates.min_dimension {
        if !file.dimensions.iter().any(|d| &d.id == dim) {
            let known: Vec<&str> = file.dimensions.iter().map(|d| d.id.as_str()).collect();
            p.push(format!(
                "field `gates.min_dimension.{dim}`: unknown dimension; known: {}",
                known.join(", ")
            ));
        }
        if !(1..=5).contains(min) {
            p.push(format!("field `gates.min_dimension.{dim}`: {min} is not allowed; use an integer from 1 to 5"));
        }
    }
}

fn check_text(p: &mut Vec<String>, at: &str, text: &str) {
    if text.trim().is_empty() {
        p.push(format!("{at}: must not be empty"));
    } else if text.chars().count() > MAX_TEXT {
        p.push(format!(
            "{at}: {} characters is too long; at most {MAX_TEXT}",
            text.chars().count()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(yaml: &str) -> String {
        Rubric::from_yaml(yaml, Path::new("rubrics/bad.yaml"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn shipped_rubric_loads_with_normalised_weights_vetoes_and_gates() {
        let r = Rubric::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/rubrics/code-quality.yaml"
        )))
        .unwrap();
        let ids: Vec<&str> = r.dimensions.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["readability", "error_handling", "minimal_change"]);
        assert!(
            r.dimensions
                .iter()
                .all(|d| (d.weight - 1.0 / 3.0).abs() < 1e-12)
        );
        let vetoes: Vec<&str> = r.vetoes.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(
            vetoes,
            [
                "tests_tampered",
                "hardcoded_expected_output",
                "unrelated_code_deleted"
            ]
        );
        assert_eq!(r.gates.min_weighted_score, Some(3.0));
        assert_eq!(r, Rubric::default_code_quality());
        assert!(r.hash.starts_with("sha256:") && r.hash.len() == 7 + 64);
    }

    #[test]
    fn hash_ignores_formatting_but_not_content() {
        let base = Rubric::default_code_quality();
        let reformatted = format!("# a new comment\n{}\n\n", DEFAULT_RUBRIC_YAML);
        assert_eq!(
            Rubric::from_yaml(&reformatted, Path::new("x"))
                .unwrap()
                .hash,
            base.hash
        );
        let changed =
            DEFAULT_RUBRIC_YAML.replace("min_weighted_score: 3.0", "min_weighted_score: 3.5");
        assert_ne!(
            Rubric::from_yaml(&changed, Path::new("x")).unwrap().hash,
            base.hash
        );
        let anchor = DEFAULT_RUBRIC_YAML.replace("minor nits only", "small nits only");
        assert_ne!(
            Rubric::from_yaml(&anchor, Path::new("x")).unwrap().hash,
            base.hash
        );
    }

    #[test]
    fn errors_name_the_file_the_field_and_what_is_allowed() {
        let e = err(
            "id: r\ndimensions:\n- {id: a, weight: 1, description: d, anchors: {1: x, 3: y, 5: z}, wieght: 2}\n",
        );
        assert!(
            e.contains("rubrics/bad.yaml")
                && e.contains("unknown field `wieght`")
                && e.contains("dimensions[0]"),
            "{e}"
        );
        assert!(
            e.contains("dimension fields: id, weight, description, anchors"),
            "{e}"
        );

        let e = err(
            "id: r\ndimensions:\n- {id: a, weight: 0, description: d, anchors: {1: x, 5: z, 7: q}}\n- {id: a, weight: 1, description: ' ', anchors: {1: x, 3: y, 5: z}}\nvetoes: [{id: Bad Id, description: d}]\ngates: {min_weighted_score: 9, min_dimension: {nope: 6}}\n",
        );
        for needle in [
            "`dimensions[0]` (a).weight: 0 is not allowed; use a positive number",
            "anchors: level 7 is not allowed; levels are 1 to 5",
            "anchors: level 3 is missing",
            "`dimensions[1]` (a).id: `a` is used twice",
            "`dimensions[1]` (a).description: must not be empty",
            "`vetoes[0]` (Bad Id).id: \"Bad Id\" is not allowed",
            "`gates.min_weighted_score`: 9 is not allowed; use a number from 1 to 5",
            "`gates.min_dimension.nope`: unknown dimension; known: a",
            "`gates.min_dimension.nope`: 6 is not allowed",
        ] {
            assert!(e.contains(needle), "missing {needle:?} in\n{e}");
        }

        let e = err("id: r\ndimensions: []\n");
        assert!(e.contains("at least one dimension"), "{e}");
        let e = err(
            "id: r\ndimensions:\n- {id: a, weight: heavy, description: d, anchors: {1: x, 3: y, 5: z}}\n",
        );
        assert!(e.contains("dimensions[0].weight"), "{e}");
    }
}
