//! From the judges' pairwise lines (`nab compare --judge`, one swap-checked pair per line,
//! candidate's point of view) to the reports' pairwise records (winner by run name), so
//! `compare.html` and the terminal summary show the judge's verdicts.
//!
//! The judges' line keeps everything (both raw answers, prompt hashes); the reports' record
//! keeps what a reader of the comparison needs. A pair with a judge or model error in either
//! order has no verdict and is left out, as the judges' own counts leave it out.

use nab_reports::compare::{PairwiseRecord, read_pairwise};
use serde_json::Value;
use std::path::Path;

/// Converts one judges' pair line (as JSON). `Ok(None)` for a pair with no verdict.
pub fn to_report_record(line: &Value) -> Result<Option<PairwiseRecord>, String> {
    let field = |k: &str| line.get(k).and_then(Value::as_str);
    let task_id = field("task_id").ok_or("no task_id")?.to_owned();
    let outcome = field("outcome").ok_or("no outcome")?;
    let (winner, consistent) = match outcome {
        "win" => ("candidate", true),
        "loss" => ("baseline", true),
        "tie" => ("tie", true),
        // The two orders disagreed: scored as a tie, flagged as inconsistent.
        "inconsistent" => ("tie", false),
        "error" => return Ok(None),
        other => return Err(format!("unknown outcome {other:?}")),
    };
    let evidence: Vec<&str> = line
        .get("evidence")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Ok(Some(PairwiseRecord {
        task_id,
        trial: line
            .get("trial")
            .and_then(Value::as_u64)
            .and_then(|t| u32::try_from(t).ok()),
        winner: winner.to_owned(),
        consistent,
        judge_model: field("judge_model").map(str::to_owned),
        reason: (!evidence.is_empty()).then(|| evidence.join(" / ")),
        baseline_run: field("baseline_run").map(str::to_owned),
        candidate_run: field("candidate_run").map(str::to_owned),
    }))
}

/// Converts the judges' lines, skipping pairs without a verdict.
pub fn to_report_records<T: serde::Serialize>(lines: &[T]) -> anyhow::Result<Vec<PairwiseRecord>> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let v = serde_json::to_value(l)?;
        if let Some(r) = to_report_record(&v)
            .map_err(|e| anyhow::anyhow!("pairwise judgement {}: {e}", i + 1))?
        {
            out.push(r);
        }
    }
    Ok(out)
}

/// Reads a pairwise file in either format: the judges' pair lines (what `nab compare
/// --judge` writes; recognised by their `outcome` field) or the reports' records
/// (`task_id`, `winner`, `consistent`, …).
pub fn read_any(path: &Path) -> anyhow::Result<Vec<PairwiseRecord>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read pairwise file {}: {e}", path.display()))?;
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|e| anyhow::anyhow!("{}:{}: not JSON: {e}", path.display(), i + 1))?;
        values.push((i + 1, v));
    }
    if !values.iter().any(|(_, v)| v.get("outcome").is_some()) {
        return Ok(read_pairwise(path)?);
    }
    let mut out = Vec::new();
    for (n, v) in &values {
        if let Some(r) =
            to_report_record(v).map_err(|e| anyhow::anyhow!("{}:{n}: {e}", path.display()))?
        {
            out.push(r);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcomes_map_to_runs_and_errors_are_left_out() {
        let line = |o: &str| {
            json!({"task_id": "t1", "trial": 2, "judge_model": "scripted:j", "outcome": o,
                   "evidence": ["first", "second"]})
        };
        let win = to_report_record(&line("win")).unwrap().unwrap();
        assert_eq!(
            (win.winner.as_str(), win.consistent, win.trial),
            ("candidate", true, Some(2))
        );
        assert_eq!(win.reason.as_deref(), Some("first / second"));
        assert_eq!(win.judge_model.as_deref(), Some("scripted:j"));
        let loss = to_report_record(&line("loss")).unwrap().unwrap();
        assert_eq!((loss.winner.as_str(), loss.consistent), ("baseline", true));
        let tie = to_report_record(&line("tie")).unwrap().unwrap();
        assert_eq!((tie.winner.as_str(), tie.consistent), ("tie", true));
        let inc = to_report_record(&line("inconsistent")).unwrap().unwrap();
        assert_eq!((inc.winner.as_str(), inc.consistent), ("tie", false));
        assert!(to_report_record(&line("error")).unwrap().is_none());
        assert!(
            to_report_record(&line("maybe"))
                .unwrap_err()
                .contains("maybe")
        );
    }

    #[test]
    fn reads_both_file_formats() {
        let dir = tempfile::tempdir().unwrap();
        let judges = dir.path().join("pairs.jsonl");
        std::fs::write(
            &judges,
            "{\"task_id\":\"a\",\"trial\":0,\"outcome\":\"win\",\"evidence\":[]}\n{\"task_id\":\"b\",\"trial\":0,\"outcome\":\"error\"}\n",
        )
        .unwrap();
        let r = read_any(&judges).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].winner, "candidate");
        let reports = dir.path().join("records.jsonl");
        std::fs::write(
            &reports,
            "{\"task_id\":\"a\",\"winner\":\"baseline\",\"consistent\":true}\n",
        )
        .unwrap();
        assert_eq!(read_any(&reports).unwrap()[0].winner, "baseline");
        std::fs::write(&reports, "{\"task_id\":\"a\",\"winner\":\"nobody\"}\n").unwrap();
        assert!(read_any(&reports).is_err());
    }
}
