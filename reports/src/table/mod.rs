//! Typed tables for researchers (polars, pandas, duckdb): results.parquet, and the tables
//! `nab export` writes across runs.
//!
//! - [`values`]: a column's values, typed, and their CSV text.
//! - [`parquet_file`]: a table as a Parquet file; [`csv_file`]: as CSV, the same columns.
//! - [`results`]: the columns of results.parquet, one row per trial.

pub(crate) mod csv_file;
pub(crate) mod parquet_file;
pub(crate) mod results;
pub(crate) mod values;

use crate::error::{ReportError, Result};
use crate::run::Run;
use std::path::Path;

/// Writes `<path>` (normally `<run>/results.parquet`), beside and renamed.
pub fn write_parquet(run: &Run, path: &Path) -> Result<()> {
    let bytes = parquet_file::encode("trials", &results::columns(&run.records)).map_err(|e| {
        ReportError::Table {
            path: path.to_owned(),
            message: e.to_string(),
        }
    })?;
    crate::output::write_file(path, &bytes)
}
