//! results.parquet: the per-trial table, typed, for researchers (polars, pandas, duckdb).
//! Written column by column with Parquet's own types (the `parquet` crate, no Arrow and no
//! data frames: a run's table is small, and a data-frame library was most of nab's build).

use crate::error::{ReportError, Result};
use crate::run::Run;
use nab_protocol::{SandboxExit, TrialRecord, TrialStatus};
use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DataType, DoubleType};
use parquet::data_type::{Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use std::path::Path;
use std::sync::Arc;

fn status_str(s: TrialStatus) -> &'static str {
    match s {
        TrialStatus::Passed => "passed",
        TrialStatus::Failed => "failed",
        TrialStatus::Error => "error",
    }
}

fn exit_str(s: SandboxExit) -> &'static str {
    match s {
        SandboxExit::Exited => "exited",
        SandboxExit::Timeout => "timeout",
        SandboxExit::Killed => "killed",
    }
}

/// One column's values, a row each. Every column is optional (a null is an absent value,
/// never 0); unsigned integers carry Parquet's unsigned logical type, so readers see
/// `UInt32`/`UInt64`.
enum Values {
    Str(Vec<Option<String>>),
    U32(Vec<Option<u32>>),
    U64(Vec<Option<u64>>),
    I64(Vec<Option<i64>>),
    F64(Vec<Option<f64>>),
    Bool(Vec<Option<bool>>),
    /// A list of strings per row (empty, never null).
    StrList(Vec<Vec<String>>),
}

impl Values {
    /// The column's line in the Parquet schema.
    fn schema(&self, name: &str) -> String {
        let scalar = |ty: &str| format!("optional {ty} {name};");
        match self {
            Values::Str(_) => format!("optional binary {name} (STRING);"),
            Values::U32(_) => format!("optional int32 {name} (INTEGER(32,false));"),
            Values::U64(_) => format!("optional int64 {name} (INTEGER(64,false));"),
            Values::I64(_) => scalar("int64"),
            Values::F64(_) => scalar("double"),
            Values::Bool(_) => scalar("boolean"),
            Values::StrList(_) => format!(
                "optional group {name} (LIST) {{ repeated group list {{ optional binary element (STRING); }} }}"
            ),
        }
    }
}

/// The table's columns, in order: one row per trial.
fn columns(r: &[TrialRecord]) -> Vec<(&'static str, Values)> {
    let mut all = outcome_columns(r);
    all.extend(usage_columns(r));
    all
}

/// A column of `f` of each record.
fn col<T>(r: &[TrialRecord], f: impl Fn(&TrialRecord) -> Option<T>) -> Vec<Option<T>> {
    r.iter().map(f).collect()
}

/// A string column of `f` of each record.
fn strs(r: &[TrialRecord], f: fn(&TrialRecord) -> Option<&str>) -> Values {
    Values::Str(col(r, |t| f(t).map(str::to_owned)))
}

/// The trial's identity, verdict and timings.
fn outcome_columns(r: &[TrialRecord]) -> Vec<(&'static str, Values)> {
    let s = |f| strs(r, f);
    vec![
        ("run_id", s(|t| Some(&t.run_id))),
        ("task_id", s(|t| Some(&t.task_id))),
        ("category", s(|t| Some(&t.category))),
        ("trial", Values::U32(col(r, |t| Some(t.trial)))),
        ("agent", s(|t| Some(&t.agent))),
        ("model", s(|t| t.model.as_deref())),
        ("status", s(|t| Some(status_str(t.outcome.status)))),
        (
            "passed",
            Values::Bool(col(r, |t| match t.outcome.status {
                TrialStatus::Error => None,
                s => Some(s == TrialStatus::Passed),
            })),
        ),
        ("reward", Values::F64(col(r, |t| Some(t.outcome.reward)))),
        (
            "tests_passed",
            Values::U32(col(r, |t| t.outcome.tests_passed)),
        ),
        (
            "tests_total",
            Values::U32(col(r, |t| t.outcome.tests_total)),
        ),
        (
            "verifier_passed",
            Values::Bool(col(r, |t| t.outcome.verifier_passed)),
        ),
        (
            "compaction",
            s(|t| t.outcome.compaction.map(|c| c.as_str())),
        ),
        ("exit_reason", s(|t| t.outcome.exit_reason.map(exit_str))),
        (
            "agent_exit_code",
            Values::I64(col(r, |t| t.outcome.agent_exit_code)),
        ),
        (
            "agent_exit_reason",
            s(|t| t.behaviour.agent_exit_reason.as_deref()),
        ),
        ("agent_s", Values::F64(col(r, |t| Some(t.outcome.agent_s)))),
        (
            "verify_s",
            Values::F64(col(r, |t| Some(t.outcome.verify_s))),
        ),
        ("error", s(|t| t.outcome.error.as_deref())),
        (
            "attempts",
            Values::U32(col(r, |t| Some(t.outcome.attempts))),
        ),
        ("started_at", s(|t| t.outcome.started_at.as_deref())),
    ]
}

/// What the trial spent and how the agent behaved; judge results are flattened to the mean
/// weighted score and whether any judge vetoed.
fn usage_columns(r: &[TrialRecord]) -> Vec<(&'static str, Values)> {
    vec![
        ("llm_calls", Values::U64(col(r, |t| t.usage.llm_calls))),
        (
            "input_tokens",
            Values::U64(col(r, |t| t.usage.input_tokens)),
        ),
        (
            "output_tokens",
            Values::U64(col(r, |t| t.usage.output_tokens)),
        ),
        (
            "cached_tokens",
            Values::U64(col(r, |t| t.usage.cached_tokens)),
        ),
        ("steps", Values::U64(col(r, |t| t.behaviour.steps))),
        (
            "tool_calls",
            Values::U64(col(r, |t| t.behaviour.tool_calls)),
        ),
        (
            "tool_failures",
            Values::U64(col(r, |t| t.behaviour.tool_failures)),
        ),
        (
            "tool_failure_rate",
            Values::F64(col(r, |t| t.behaviour.tool_failure_rate)),
        ),
        (
            "policy_blocks",
            Values::U64(col(r, |t| t.behaviour.policy_blocks)),
        ),
        (
            "budget_exceeded",
            Values::Bool(col(r, |t| t.behaviour.budget_exceeded)),
        ),
        (
            "violations",
            Values::StrList(r.iter().map(|t| t.behaviour.violations.clone()).collect()),
        ),
        (
            "judge_score",
            Values::F64(col(r, |t| {
                let s: Vec<f64> = t.judges.iter().filter_map(|j| j.weighted_score).collect();
                (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64)
            })),
        ),
        (
            "judge_vetoed",
            Values::Bool(col(r, |t| {
                (!t.judges.is_empty()).then(|| t.judges.iter().any(|j| j.vetoed))
            })),
        ),
    ]
}

/// Writes `<path>` (normally `<run>/results.parquet`): one row group, zstd-compressed.
pub fn write_parquet(run: &Run, path: &Path) -> Result<()> {
    let table_err = |e: parquet::errors::ParquetError| ReportError::Table {
        path: path.to_owned(),
        message: e.to_string(),
    };
    let columns = columns(&run.records);
    let schema = format!(
        "message trials {{ {} }}",
        columns
            .iter()
            .map(|(name, v)| v.schema(name))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let schema = Arc::new(parquet::schema::parser::parse_message_type(&schema).map_err(table_err)?);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .build();
    let file = std::fs::File::create(path).map_err(|source| ReportError::Write {
        path: path.to_owned(),
        source,
    })?;
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).map_err(table_err)?;
    let mut group = writer.next_row_group().map_err(table_err)?;
    for (_, values) in &columns {
        let Some(mut column) = group.next_column().map_err(table_err)? else {
            break;
        };
        write_column(&mut column, values).map_err(table_err)?;
        column.close().map_err(table_err)?;
    }
    group.close().map_err(table_err)?;
    writer.close().map_err(table_err)?;
    Ok(())
}

/// Writes one column's values with their definition levels (1: present, 0: null; for the
/// list, 1: empty, 3: an element, and a repetition level of 1 for each element after a
/// row's first).
fn write_column(
    w: &mut SerializedColumnWriter<'_>,
    values: &Values,
) -> parquet::errors::Result<()> {
    match values {
        Values::Str(v) => optional::<ByteArrayType, _>(w, v, |s| ByteArray::from(s.as_str())),
        // Parquet stores unsigned integers in the signed type of their width, bit for bit.
        Values::U32(v) => optional::<Int32Type, _>(w, v, |n| *n as i32),
        Values::U64(v) => optional::<Int64Type, _>(w, v, |n| *n as i64),
        Values::I64(v) => optional::<Int64Type, _>(w, v, |n| *n),
        Values::F64(v) => optional::<DoubleType, _>(w, v, |n| *n),
        Values::Bool(v) => optional::<BoolType, _>(w, v, |b| *b),
        Values::StrList(rows) => {
            let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
            for row in rows {
                if row.is_empty() {
                    defs.push(1);
                    reps.push(0);
                }
                for (i, s) in row.iter().enumerate() {
                    values.push(ByteArray::from(s.as_str()));
                    defs.push(3);
                    reps.push(i16::from(i > 0));
                }
            }
            w.typed::<ByteArrayType>()
                .write_batch(&values, Some(&defs), Some(&reps))
                .map(drop)
        }
    }
}

/// Writes an optional column: the present values, and a definition level per row.
fn optional<T: DataType, V>(
    w: &mut SerializedColumnWriter<'_>,
    rows: &[Option<V>],
    to: impl Fn(&V) -> T::T,
) -> parquet::errors::Result<()> {
    let defs: Vec<i16> = rows.iter().map(|v| i16::from(v.is_some())).collect();
    let present: Vec<T::T> = rows.iter().flatten().map(to).collect();
    w.typed::<T>()
        .write_batch(&present, Some(&defs), None)
        .map(drop)
}
