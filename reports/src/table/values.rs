//! One column of a table, typed: what results.parquet and `nab export` write, in Parquet
//! or CSV, from the same values.

/// A table's columns, in order, each with its name.
pub(crate) type Columns = Vec<(&'static str, Values)>;

/// One column's values, a row each. Every column is optional (a null is an absent value,
/// never 0); unsigned integers carry Parquet's unsigned logical type, so readers see
/// `UInt32`/`UInt64`.
pub(crate) enum Values {
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
    pub(crate) fn schema(&self, name: &str) -> String {
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

    /// How many rows the column holds.
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::Str(v) => v.len(),
            Values::U32(v) => v.len(),
            Values::U64(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::F64(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::StrList(v) => v.len(),
        }
    }

    /// Row `i` as CSV text: empty for a null; numbers in Rust's shortest form that reads
    /// back to the same value; `true`/`false`; a list as a JSON array of strings (a CSV
    /// cell holds one value, and every CSV reader's language parses JSON).
    pub(crate) fn text(&self, i: usize) -> String {
        fn opt<T>(v: &[Option<T>], i: usize, f: impl Fn(&T) -> String) -> String {
            v.get(i).and_then(Option::as_ref).map(f).unwrap_or_default()
        }
        match self {
            Values::Str(v) => opt(v, i, String::clone),
            Values::U32(v) => opt(v, i, u32::to_string),
            Values::U64(v) => opt(v, i, u64::to_string),
            Values::I64(v) => opt(v, i, i64::to_string),
            Values::F64(v) => opt(v, i, f64::to_string),
            Values::Bool(v) => opt(v, i, bool::to_string),
            Values::StrList(v) => v
                .get(i)
                .map(|items| serde_json::Value::from(items.clone()).to_string())
                .unwrap_or_default(),
        }
    }
}

/// A column of `f` of each row.
pub(crate) fn col<R, T>(rows: &[R], f: impl Fn(&R) -> Option<T>) -> Vec<Option<T>> {
    rows.iter().map(f).collect()
}
