//! A table as a Parquet file, written column by column with Parquet's own types (the
//! `parquet` crate, no Arrow and no data frames: nab's tables are small, and a data-frame
//! library was most of nab's build). One row group, zstd-compressed.

use super::values::Values;
use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DataType, DoubleType};
use parquet::data_type::{Int32Type, Int64Type};
use parquet::errors::Result;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use std::sync::Arc;

/// The bytes of a Parquet file whose schema is the message `message` with `columns`.
pub(crate) fn encode(message: &str, columns: &[(&str, Values)]) -> Result<Vec<u8>> {
    let schema = format!(
        "message {message} {{ {} }}",
        columns
            .iter()
            .map(|(name, v)| v.schema(name))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let schema = Arc::new(parquet::schema::parser::parse_message_type(&schema)?);
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .build();
    let mut bytes = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut bytes, schema, Arc::new(props))?;
    let mut group = writer.next_row_group()?;
    for (_, values) in columns {
        let Some(mut column) = group.next_column()? else {
            break;
        };
        write_column(&mut column, values)?;
        column.close()?;
    }
    group.close()?;
    writer.close()?;
    Ok(bytes)
}

/// Writes one column's values with their definition levels (1: present, 0: null; for the
/// list, 1: empty, 3: an element, and a repetition level of 1 for each element after a
/// row's first).
fn write_column(w: &mut SerializedColumnWriter<'_>, values: &Values) -> Result<()> {
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
) -> Result<()> {
    let defs: Vec<i16> = rows.iter().map(|v| i16::from(v.is_some())).collect();
    let present: Vec<T::T> = rows.iter().flatten().map(to).collect();
    w.typed::<T>()
        .write_batch(&present, Some(&defs), None)
        .map(drop)
}
