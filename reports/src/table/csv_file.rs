//! A table as CSV: a header row of the column names, then one record per row, each cell
//! the value's text ([`Values::text`]), quoted where CSV needs it (RFC 4180).

use super::values::Values;

/// The bytes of the CSV file of `columns`.
pub(crate) fn encode(columns: &[(&str, Values)]) -> Result<Vec<u8>, csv::Error> {
    let rows = columns.first().map_or(0, |(_, v)| v.len());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(columns.iter().map(|(name, _)| *name))?;
    for i in 0..rows {
        w.write_record(columns.iter().map(|(_, v)| v.text(i)))?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}
