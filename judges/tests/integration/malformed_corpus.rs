//! The corpus of malformed and hostile judge outputs: every one is rejected with its
//! reason, retried with the reason shown to the judge, and finally recorded as a
//! `judge_error` with the raw output kept — never scored.

use crate::common;

use nab_judges::{
    Candidate, MAX_RETRIES, RejectKind, Role, Rubric, ScriptedJudge, grade_with_prompt,
    parse_single, single_prompt,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    file: String,
    kind: String,
    contains: String,
}

fn corpus() -> Vec<(Case, String)> {
    let dir = common::fixtures_dir().join("malformed");
    let cases: Vec<Case> =
        serde_yaml::from_str(&std::fs::read_to_string(dir.join("expected.yaml")).unwrap()).unwrap();
    // Every fixture file is listed, so none silently escapes the test.
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "txt")
        })
        .count();
    assert_eq!(
        files,
        cases.len(),
        "every fixture must be listed in expected.yaml"
    );
    cases
        .into_iter()
        .map(|c| {
            let raw = std::fs::read_to_string(dir.join(&c.file)).unwrap();
            (c, raw)
        })
        .collect()
}

fn kind_name(k: RejectKind) -> String {
    serde_json::to_value(k)
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn the_corpus_has_at_least_25_cases_and_each_is_rejected_for_its_reason() {
    let rubric = Rubric::default_code_quality();
    let cases = corpus();
    assert!(cases.len() >= 25, "only {} cases", cases.len());
    for (case, raw) in &cases {
        match parse_single(raw, &rubric) {
            Ok(v) => panic!("{} was accepted: {v:?}", case.file),
            Err(r) => {
                assert_eq!(kind_name(r.kind), case.kind, "{}: {}", case.file, r.message);
                assert!(
                    r.message.contains(&case.contains),
                    "{}: {:?} does not contain {:?}",
                    case.file,
                    r.message,
                    case.contains
                );
            }
        }
    }
}

#[test]
fn the_well_formed_answer_the_corpus_is_built_from_is_accepted() {
    // Guards against a corpus that only fails because the base answer is itself wrong.
    let rubric = Rubric::default_code_quality();
    let ok = common::answer([4, 3, 5], [false, false, false]);
    let v = parse_single(&ok, &rubric).unwrap();
    assert_eq!(
        v.scores.iter().map(|s| s.score).collect::<Vec<_>>(),
        vec![4, 3, 5]
    );
    // One code fence, with or without a language tag, is accepted.
    assert_eq!(
        parse_single(&format!("```json\n{ok}\n```"), &rubric).unwrap(),
        v
    );
    assert_eq!(
        parse_single(&format!("  ```\n{ok}\n```\n"), &rubric).unwrap(),
        v
    );
    // Order of entries in the answer does not matter; the result is in rubric order.
    let mut value: serde_json::Value = serde_json::from_str(&ok).unwrap();
    value["scores"].as_array_mut().unwrap().reverse();
    assert_eq!(parse_single(&value.to_string(), &rubric).unwrap(), v);
}

#[tokio::test]
async fn every_corpus_case_ends_as_judge_error_with_raw_output_and_retries() {
    let rubric = Rubric::default_code_quality();
    let prompt = single_prompt(
        &rubric,
        "Fix it.",
        &Candidate::new("+x", "tool calls: 0"),
        None,
    )
    .unwrap();
    for (case, raw) in corpus() {
        let judge = ScriptedJudge::queued("scripted:bad", [raw.clone(), raw.clone(), raw.clone()]);
        let g = grade_with_prompt(&judge, &rubric, &prompt).await.unwrap();
        let r = &g.record;
        assert_eq!(r.weighted_score, None, "{} was scored", case.file);
        assert!(
            r.scores.is_empty() && r.vetoes.is_empty() && r.gate_passed.is_none() && !r.vetoed,
            "{}",
            case.file
        );
        let err = r.error.as_deref().unwrap();
        assert!(
            err.starts_with("judge_error: ") && err.contains(&case.contains),
            "{}: {err}",
            case.file
        );
        assert_eq!(r.retries, MAX_RETRIES, "{}", case.file);
        assert_eq!(r.raw_output, raw, "{}", case.file);
        assert_eq!(g.attempts.len(), 3);
        assert!(g.attempts.iter().all(|a| a.rejection.is_some()));
        // The judge saw the rejection before each retry.
        let convs = judge.conversations();
        assert_eq!(convs.len(), 3);
        let last = convs[2].last().unwrap();
        assert_eq!(last.role, Role::User);
        assert!(
            last.content.contains("rejected") && last.content.contains(&case.contains),
            "{}: {}",
            case.file,
            last.content
        );
        assert_eq!(convs[2][convs[2].len() - 2].content, raw);
    }
}

#[tokio::test]
async fn a_malformed_answer_then_a_valid_one_is_scored_and_the_retry_counted() {
    let rubric = Rubric::default_code_quality();
    let prompt = single_prompt(&rubric, "Fix it.", &Candidate::new("+x", "t"), None).unwrap();
    let bad = std::fs::read_to_string(common::fixtures_dir().join("malformed/01-score-float.txt"))
        .unwrap();
    let good = common::answer([4, 2, 5], [false, false, false]);
    let judge = ScriptedJudge::queued("scripted:j", [bad.clone(), good.clone()]);
    let g = grade_with_prompt(&judge, &rubric, &prompt).await.unwrap();
    assert_eq!(g.record.retries, 1);
    assert_eq!(g.record.error, None);
    assert_eq!(g.record.raw_output, good);
    // (4 + 2 + 5) / 3 with the shipped equal weights.
    assert!((g.record.weighted_score.unwrap() - 11.0 / 3.0).abs() < 1e-9);
    assert_eq!(
        g.attempts[0]
            .rejection
            .as_deref()
            .map(|r| r.contains("decimal point")),
        Some(true)
    );
    // Tokens of both attempts are counted.
    let convs = judge.conversations();
    let expected_in: u64 = convs
        .iter()
        .map(|c| (c.iter().map(|m| m.content.len()).sum::<usize>() / 4) as u64)
        .sum();
    assert_eq!(g.record.input_tokens, expected_in);
}

#[tokio::test]
async fn a_model_failure_is_a_model_error_not_a_judge_error() {
    let rubric = Rubric::default_code_quality();
    let prompt = single_prompt(&rubric, "Fix it.", &Candidate::new("+x", "t"), None).unwrap();
    let judge = ScriptedJudge::queued("scripted:empty", Vec::<String>::new());
    let g = grade_with_prompt(&judge, &rubric, &prompt).await.unwrap();
    assert!(
        g.record
            .error
            .as_deref()
            .unwrap()
            .starts_with("model_error: "),
        "{:?}",
        g.record.error
    );
    assert_eq!((g.record.weighted_score, g.record.retries), (None, 0));
}
